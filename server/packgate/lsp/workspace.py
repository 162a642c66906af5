"""The project around the open documents: its shell scripts, their texts and their change stamps.

No protocol types live here; ``server.py`` asks, ``convert.py`` renders. Paths are file system
paths; ``real`` paths have symlinks resolved, as ``Analysis.dependencies`` has them.
"""

from __future__ import annotations

import itertools
import os
import re
import stat
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from packgate.core.files import decode, is_shell_script, read_file, walk
from packgate.core.settings import EDITOR_ONLY_KEYS

if TYPE_CHECKING:
    from packgate.core.settings import Settings


@dataclass(frozen=True)
class ScanLimits:
    """Where a workspace scan (workspace diagnostics, references) stops, so that a dataset folder
    cannot keep it busy: the settings packgate.workspace.maxScripts and maxFiles (0: no limit)."""

    max_scripts: int = EDITOR_ONLY_KEYS["workspace.maxScripts"]["default"]
    max_files: int = EDITOR_ONLY_KEYS["workspace.maxFiles"]["default"]

    @classmethod
    def of(cls, values: Mapping[str, int]) -> "ScanLimits":
        """The limits from settings.editor_only's values."""
        return cls(values["workspace.maxScripts"], values["workspace.maxFiles"])


# Which limit cut a scan short, as the message to the user names it.
CUT_SCRIPTS, CUT_FILES = "maxScripts", "maxFiles"
# A Python file is read only to convert one line's columns; bigger files are not read.
MAX_LINE_FILE = 2 * 1024 * 1024
_PY_LINES = re.compile(r"\r\n|\r|\n")


def scripts(roots: Iterable[str], limits: ScanLimits = ScanLimits(),
            on_count: Callable[[int], None] | None = None) -> tuple[list[str], str | None]:
    """The shell scripts below real-path roots, found as `packgate check DIR` finds them, and
    which limit cut the scan short (CUT_SCRIPTS, CUT_FILES; None: every script was found).
    on_count is told how many scripts were found after each one.

    Only regular files are opened to look for a shebang (a FIFO would block the read), and a
    symlink counts only if it resolves inside a root.
    """
    roots = list(roots)
    out: list[str] = []
    seen: set[str] = set()
    visited = 0
    for root in roots:
        for path in walk(root):
            visited += 1
            if limits.max_files and visited > limits.max_files:
                return out, CUT_FILES
            if path in seen:  # nested workspace folders
                continue
            seen.add(path)
            try:
                if stat.S_ISLNK(os.lstat(path).st_mode) and \
                        not any(inside(os.path.realpath(path), r) for r in roots):
                    continue
                if not stat.S_ISREG(os.stat(path).st_mode):
                    continue
            except OSError:
                continue
            if is_shell_script(path):
                if limits.max_scripts and len(out) >= limits.max_scripts:
                    return out, CUT_SCRIPTS
                out.append(path)
                if on_count is not None:
                    on_count(len(out))
    return out, None


def real_path(path: str) -> str:
    """The real path of a file the scan found: itself unless it is a symlink (the scan's roots
    are real and it does not enter linked folders), which saves a look at every folder above it."""
    return os.path.realpath(path) if os.path.islink(path) else path


def read_text(path: str) -> str | None:
    """A script's text from disk (regular files within the analysis size limit), else None."""
    data, _reason = read_file(path)
    return None if data is None else decode(data)[0]


def read_line(path: str, line: int, overlay: Mapping[str, str]) -> str | None:
    """Line `line` (0-based) of a file, from the open document when it is open; None if unreadable."""
    text = overlay.get(path)
    if text is None:
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_LINE_FILE:
                return None
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return None
    rows = _PY_LINES.split(text)  # Python's line breaks (not str.splitlines'), as ast numbers lines
    return rows[line] if 0 <= line < len(rows) else None


def stamp(path: str) -> tuple[int, int] | None:
    """(mtime_ns, size) of a file, or None when it does not exist."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def inside(path: str, root: str) -> bool:
    """Whether a real path lies in (or is) a real root."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


@dataclass
class Checked:
    """The diagnostics of one closed script (as JSON: closed_reports), with what they were computed from."""

    stamp: Any
    settings: Settings
    generation: int
    deps: tuple[tuple[str, Any], ...]
    result_id: str
    rendered: Any


@dataclass
class Checks:
    """Workspace diagnostics of closed scripts, recomputed only when the script, a file it
    sources, its settings or the project's code changed (clients poll workspace/diagnostic)."""

    items: dict[str, Checked] = field(default_factory=dict)
    _ids: Any = field(default_factory=itertools.count)

    def current(self, path: str, file_stamp: Any, settings: Settings, generation: int,
                dep_stamp: Callable[[str], Any]) -> Checked | None:
        """The stored result for path if nothing it depends on changed, else None."""
        got = self.items.get(path)
        if got is None or got.stamp != file_stamp or got.settings != settings or got.generation != generation:
            return None
        if any(dep_stamp(p) != s for p, s in got.deps):
            return None
        return got

    def store(self, path: str, file_stamp: Any, settings: Settings, generation: int,
              deps: Iterable[str], dep_stamp: Callable[[str], Any], rendered: Any) -> Checked:
        """Keep a fresh result (with a new result id)."""
        checked = Checked(file_stamp, settings, generation, tuple((p, dep_stamp(p)) for p in sorted(deps)),
                          f"w{next(self._ids)}", rendered)
        self.items[path] = checked
        return checked

    def keep_only(self, paths: Iterable[str]) -> None:
        """Forget scripts that are no longer in the workspace."""
        wanted = set(paths)
        for path in [p for p in self.items if p not in wanted]:
            del self.items[path]
