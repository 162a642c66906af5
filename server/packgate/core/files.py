"""Files as packgate reads them: what counts as a shell script, walking a folder, reading one
file safely, and the bounds a text keeps to be analysed.

`packgate check`, the server's workspace pass and `source` following all read through here, so
they agree: one size cap, one NUL rule, one /proc /sys /dev rule (docs/reliability.md).
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Callable, Iterator, Optional

SHELL_SUFFIXES = (".sh", ".bash")
# Never walked into: tool folders and Python environments (`venv`, `.venv`, and any folder
# holding a VENV_MARKER, whatever its name).
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".hg", ".svn", ".tox"})
VENV_MARKER = "pyvenv.cfg"
KERNEL_TREES = ("/dev", "/proc", "/sys")

# Past these sizes a text is not analysed: time and memory stay bounded (docs/reliability.md).
# Bytes alone do not bound the syntax tree (a megabyte of `a|a|...` is half a million nodes
# deep), so lines and command separators count too.
MAX_BYTES = 5 * 1024 * 1024
MAX_UNITS = 120_000
MAX_WORDS = 1_000_000
# ... nor do blanks and separators bound it on one dense line: `$a$a...`, `"a""a"...`,
# `{a,b}...`, `$((1+1+...))` are several nodes every two or three bytes. Expansions, quotes,
# braces, parentheses, `+`, `,` and redirections count here (a 50,000-line launcher has
# about 80,000 of them).
MAX_MARKS = 500_000
MARKS = (b"$", b'"', b"'", b"{", b"(", b"+", b",", b"<", b">")

KERNEL_FILE = "a kernel or device file, not a script (/proc, /sys and /dev are not read)"
NOT_REGULAR = "not a regular file (devices, FIFOs and sockets are not read)"
BINARY = "binary file (NUL bytes), not a shell script"


def too_large(data: bytes) -> str:
    """Why a text is too large to analyse, or '' when it is not."""
    if len(data) > MAX_BYTES:
        return _too_large(len(data))
    n = len(data)
    # each count is at most one a byte (a `$(` counts once for two bytes that are no separators):
    # a text is counted against a limit only when it is long enough to break it (on a 60 KB
    # launcher the passes cost about half a millisecond, which every keystroke paid), one pass
    # per group (bytes.translate deletes them) instead of a count() per character
    if n > MAX_UNITS:
        units = n - len(data.translate(None, b"\n;|&`")) + data.count(b"$(")
        if units > MAX_UNITS:
            return (f"too large to analyze ({units} lines, command separators and substitutions; "
                    f"the limit is {MAX_UNITS})")
    if n > MAX_WORDS:
        words = n - len(data.translate(None, b" \t"))
        if words > MAX_WORDS:
            return f"too large to analyze ({words} blanks between words; the limit is {MAX_WORDS})"
    if n > MAX_MARKS:
        marks = n - len(data.translate(None, b"".join(MARKS)))
        if marks > MAX_MARKS:
            return (f"too large to analyze ({marks} expansions, quotes, brackets and operators; "
                    f"the limit is {MAX_MARKS})")
    return ""


def in_kernel_tree(path: str) -> bool:
    """Whether a path, as written or with symlinks resolved, lies in /dev, /proc or /sys."""
    for candidate in (os.path.abspath(path), os.path.realpath(path)):
        if any(candidate == t or candidate.startswith(t + "/") for t in KERNEL_TREES):
            return True
    return False


def is_shell_script(path: str) -> bool:
    """`*.sh`, `*.bash`, or a regular file without an extension whose first line is a bash/sh
    shebang (other extensions are not scripts packgate lints)."""
    suffix = os.path.splitext(os.path.basename(path))[1]
    if suffix in SHELL_SUFFIXES:
        return True
    if suffix:
        return False
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # never open a FIFO or device to sniff it
            return False
        with open(path, "rb") as handle:
            head = handle.read(128)
    except (OSError, ValueError):
        return False
    first = head.split(b"\n", 1)[0]
    return first.startswith(b"#!") and any(s in first for s in (b"bash", b"/sh", b" sh"))


def walk(root: str, on_error: Optional[Callable[[OSError], None]] = None,
         respect_ignores: bool = True) -> Iterator[str]:
    """Every file below a folder, in a stable (sorted) order, skipping SKIP_DIRS, environment
    folders (any holding a `pyvenv.cfg`) and, with respect_ignores, what the `.gitignore` and
    `.ignore` files of the folder, its subfolders and its parents up to the repository's root
    ignore (core/gitignore.py: ruff's rules). The root itself is walked even when ignored: it
    was named."""
    from .gitignore import Ignores
    top = os.path.abspath(root)
    chains = {root: (top, Ignores.at(top) if respect_ignores else None)}
    first = True
    for folder, dirs, names in os.walk(root, onerror=on_error):
        here, chain = chains.pop(folder, (None, None))
        if here is None:  # not reached through a folder kept below (cannot happen; be safe)
            here = os.path.abspath(folder)
        below, first = not first, False
        if below and VENV_MARKER in names:
            dirs[:] = []  # a Python environment (`python -m venv env`): its scripts are not the project's
            continue
        if chain is not None and below:
            chain = chain.enter(here, set(names).union(dirs))
        ignored = chain.ignored if chain is not None and chain.levels else None
        inside = here.rstrip(os.sep) + os.sep
        kept = []
        for d in sorted(dirs):
            if d in SKIP_DIRS or ignored is not None and ignored(inside + d, True):
                continue
            kept.append(d)
            chains[os.path.join(folder, d)] = (inside + d, chain)
        dirs[:] = kept
        shown = display_path(folder)
        for name in sorted(names):
            if ignored is not None and ignored(inside + name, False):
                continue
            yield name if shown == "." else os.path.join(shown, name)  # `check .` prints `a.sh`, not `./a.sh`


def display_path(path: str) -> str:
    """path as pathlib spells it (`./a//b/` is `a/b`), the way `check` shows the paths it is given.

    Written out on POSIX because importing pathlib (with urllib.parse and ipaddress) is a
    twentieth of a cold `packgate check`."""
    if os.name != "posix":
        from pathlib import PurePath
        return str(PurePath(path))
    lead = "/" if path.startswith("/") else ""
    if path.startswith("//") and not path.startswith("///"):
        lead = "//"  # POSIX leaves the meaning of exactly two leading slashes to the system
    parts = [p for p in path.split("/") if p and p != "."]
    return lead + "/".join(parts) if lead or parts else "."


def upward(folder: str) -> Iterator[str]:
    """folder, then each folder above it, up to the file system's root."""
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def read_file(path: str) -> tuple[Optional[bytes], Optional[str]]:
    """(bytes, None), or (None, a one-line reason): only regular files outside /dev, /proc and
    /sys, up to MAX_BYTES, without NUL bytes."""
    try:
        if in_kernel_tree(path):
            return None, KERNEL_FILE
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        return None, _cannot(exc)
    if not stat.S_ISREG(st.st_mode):
        return None, NOT_REGULAR
    if st.st_size > MAX_BYTES:
        return None, _too_large(st.st_size)
    try:
        # O_NONBLOCK: a file swapped for a FIFO after the stat must not block the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None, NOT_REGULAR
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return None, _cannot(exc)
    if len(data) > MAX_BYTES:
        return None, _too_large(len(data))
    return (None, BINARY) if is_binary(data) else (data, None)


def is_binary(data: bytes) -> bool:
    """A NUL anywhere: bash cannot even hold one, so a file with one is not a script."""
    return b"\0" in data


def decode(data: bytes) -> tuple[str, bool]:
    """(text, whether it was valid UTF-8): undecodable bytes are replaced, never refused."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace"), False


def _too_large(size: int) -> str:
    return f"too large to analyze ({size // 1024} KiB; the limit is {MAX_BYTES // (1024 * 1024)} MiB)"


def _cannot(exc: Exception) -> str:
    reason = getattr(exc, "strerror", None) or exc
    if getattr(exc, "errno", None) == errno.ENOENT:
        return f"not found ({reason})"
    return f"cannot read: {reason}"
