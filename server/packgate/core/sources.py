"""Reading sourced files safely: regular files inside an allowed root, bounded in size.

The loader is the only way the flow reads another script. It refuses devices, FIFOs, sockets,
anything outside the root once symlinks are resolved, and files over MAX_SOURCE_BYTES. Editors
pass the text of open documents as an overlay so unsaved edits count.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable, Mapping, Optional

MAX_SOURCE_BYTES = 1024 * 1024
_REFUSED_TREES = ("/dev", "/proc", "/sys")


class SourceLoader:
    """Loads sourced scripts for one analysis: `load(path) -> (text, None) | (None, reason)`."""

    def __init__(self, root: Optional[str], overlay: Optional[Mapping[str, str]] = None,
                 on_read: Optional[Callable[[str], None]] = None):
        self.root = os.path.realpath(root) if root else None
        self.overlay = {os.path.realpath(k): v for k, v in (overlay or {}).items()}
        self.on_read = on_read

    def load(self, path: str) -> tuple[Optional[str], Optional[str]]:
        """The text of a sourced file, or why it is not read."""
        if any(path == t or path.startswith(t + "/") for t in _REFUSED_TREES):
            return None, "a device or kernel file, not a script"
        real = os.path.realpath(path)
        if any(real == t or real.startswith(t + "/") for t in _REFUSED_TREES):
            return None, "a device or kernel file, not a script"
        if self.root is not None and not (real == self.root or real.startswith(self.root + os.sep)):
            return None, "outside the project (symlinks included)"
        if self.on_read is not None:
            self.on_read(real)
        if real in self.overlay:
            return self.overlay[real], None
        try:
            st = os.stat(real)
        except OSError as exc:
            return None, f"not found ({exc.strerror or exc})"
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file (devices, FIFOs and sockets are not read)"
        if st.st_size > MAX_SOURCE_BYTES:
            return None, f"too large to follow ({st.st_size // 1024} KiB; the limit is 1 MiB)"
        try:
            with open(real, "rb") as handle:
                data = handle.read(MAX_SOURCE_BYTES + 1)
        except OSError as exc:
            return None, f"cannot read ({exc.strerror or exc})"
        if b"\0" in data[:8192]:
            return None, "a binary file, not a script"
        return data.decode("utf-8", "replace"), None


def default_root(script_path: Optional[str]) -> Optional[str]:
    """For the CLI: the project root holding the script, else the script's own folder."""
    if not script_path:
        return None
    from .project import find_root
    root = find_root(Path(script_path))
    if root is not None:
        return str(root)
    return str(Path(script_path).resolve().parent)
