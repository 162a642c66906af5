"""`--exclude` / `exclude`: glob patterns of files and folders `packgate check` skips."""

from __future__ import annotations

import os
from fnmatch import fnmatchcase


def patterns_of(settings) -> tuple:
    """The patterns in force: `exclude` (or --exclude) and then `extend-exclude`."""
    return tuple(settings.exclude) + tuple(settings.extend_exclude)


def excluded(path: str, settings) -> bool:
    """True when path, a folder above it, or its name matches one of the settings' patterns.

    A pattern with a slash matches the path (as given, or relative to the working folder) or a
    leading part of it (`vendor/*`, `scripts/old`); one without matches any single part
    (`legacy`, `*_old.sh`)."""
    patterns = patterns_of(settings)
    if not patterns:
        return False
    rel = path
    if os.path.isabs(path):
        try:
            inside = os.path.relpath(path)
            if not inside.startswith(".."):
                rel = inside
        except ValueError:
            pass
    parts = [p for p in rel.replace(os.sep, "/").split("/") if p not in ("", ".")]
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for pattern in patterns:
        pattern = pattern.replace(os.sep, "/").rstrip("/")
        if pattern.endswith("/**"):
            pattern = pattern[:-3]
        pattern = pattern.removeprefix("./")
        if "/" in pattern:
            if any(fnmatchcase(p, pattern) or fnmatchcase("/" + p, pattern) for p in prefixes):
                return True
        elif any(fnmatchcase(part, pattern) for part in parts):
            return True
    return False
