"""The Python files the training code's readers look at (the gate scan, core/project.py, and the
contract index, core/code/index.py, walk the same ones), and whether a walk's files changed."""

from __future__ import annotations

import os
import stat

# Reads in tests and fixtures do not say what the trainer reads.
SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", "site-packages", ".tox",
             ".mypy_cache", ".pytest_cache", "build", "dist", "tests", "test", "testing", "fixtures"}
MAX_FILES = 20_000
MAX_FILE_BYTES = 2 * 1024 * 1024


def python_files(root: str, folders: list | None = None):
    """(path, its lstat) of every `*.py` file below root the training code's readers look at, in a
    stable order: SKIP_DIRS and hidden folders are left out, at most MAX_FILES names; the stat is
    None for a file that is not read (not regular, larger than MAX_FILE_BYTES, gone). The gate
    scan and the contract index (core/code/index.py) walk the same files. folders, when given,
    receives a stamp entry for each folder walked (stamp_changed: a file added or removed there
    changes its mtime)."""
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        if folders is not None:
            try:
                folders.append((folder, os.stat(folder).st_mtime_ns, None))
            except OSError:
                pass
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            count += 1
            if count > MAX_FILES:
                return
            path = os.path.join(folder, name)
            try:
                st = os.lstat(path)
            except OSError:
                yield path, None
                continue
            yield path, (st if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE_BYTES else None)


def stamp_changed(stamp) -> bool:
    """Whether a file of a (path, mtime_ns, size) stamp changed or went away, or a folder's
    (path, mtime_ns, None) entry says a file was added there or removed (an editor without file
    watching saves a new train.py: the next revalidation sees it)."""
    for p, mtime, size in stamp:
        try:
            st = os.stat(p)
        except OSError:
            return True
        if st.st_mtime_ns != mtime or (size is not None and st.st_size != size):
            return True
    return False
