"""`--exclude` / `exclude`: glob patterns of files and folders `packgate check` skips."""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase


def patterns_of(settings) -> tuple:
    """The patterns in force: `exclude` (or --exclude) and then `extend-exclude`."""
    return tuple(settings.exclude) + tuple(settings.extend_exclude)


def excluded(path: str, settings, base: str | None = None) -> bool:
    """True when path, a folder above it, or its name matches one of the settings' patterns."""
    return matching(path, patterns_of(settings), base) is not None


def matching(path: str, patterns, base: str | None = None) -> str | None:
    """The first of patterns that path, a folder above it, or its name matches; None if none does.

    A pattern with a slash matches the path relative to base (the server passes the folder of the
    configuration file, else the workspace folder), or without base the path as given (or
    relative to the working folder, as `packgate check` sees it), or a leading part of it
    (`vendor/*`, `scripts/old`); one without matches any single part (`legacy`, `*_old.sh`) of
    that relative path."""
    if not patterns:
        return None
    rel = path
    if base is not None:
        inside = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
        if not inside.startswith(".."):
            rel = inside
    elif os.path.isabs(path):
        try:
            inside = os.path.relpath(path)
            if not inside.startswith(".."):
                rel = inside
        except ValueError:
            pass
    parts = [p for p in rel.replace(os.sep, "/").split("/") if p not in ("", ".")]
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for written in patterns:
        pattern = written.replace(os.sep, "/").rstrip("/")
        if pattern.endswith("/**"):
            pattern = pattern[:-3]
        pattern = pattern.removeprefix("./")
        if "/" in pattern:
            if any(fnmatchcase(p, pattern) or fnmatchcase("/" + p, pattern) for p in prefixes):
                return written
        elif any(fnmatchcase(part, pattern) for part in parts):
            return written
    return None


# compiled (and cached) by re on the first exclude pattern: most runs have none
_CODE = r"(?i)PG\d+"


def looks_like_rule(pattern: str) -> bool:
    """Whether an exclude pattern is a rule's code (`PG009`, a prefix `PG00`) or name
    (`dead-var`): a ShellCheck `-e` habit; excluding takes paths, --ignore takes rules."""
    if re.fullmatch(_CODE, pattern.strip()):
        return True
    from .rules import RULES
    return pattern.strip() in {r.name for r in RULES}
