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

if TYPE_CHECKING:
    from packgate.core.settings import Settings

# A workspace scan (references, workspace diagnostics) stops after this many scripts, or after
# visiting this many directory entries, so a dataset folder cannot stall the server.
MAX_SCRIPTS = 2000
MAX_VISITED = 50_000
# A Python file is read only to convert one line's columns; bigger files are not read.
MAX_LINE_FILE = 2 * 1024 * 1024
_PY_LINES = re.compile(r"\r\n|\r|\n")


def scripts(roots: Iterable[str], limit: int = MAX_SCRIPTS,
            visit_limit: int = MAX_VISITED) -> tuple[list[str], bool]:
    """The shell scripts below real-path roots, found as `packgate check DIR` finds them; True if
    the scan was cut short.

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
            if visited > visit_limit:
                return out, True
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
                out.append(path)
                if len(out) >= limit:
                    return out, True
    return out, False


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
    """The rendered diagnostics of one closed script, with what they were computed from."""

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
