"""Reading sourced files safely: regular files inside an allowed root, within the bounds.

The loader is the only way the flow reads another script. It reads through `files.read_file`
(the reader `packgate check` uses: no devices, FIFOs, sockets, /proc, /sys or /dev, one size
cap, no NUL bytes), refuses anything outside the root once symlinks are resolved, and a text
past the analysis bounds. Editors pass the text of open documents as an overlay so unsaved
edits count.
"""

from __future__ import annotations

import os

from .files import KERNEL_FILE, decode, in_kernel_tree, read_file, too_large

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Callable, Mapping, Optional


class SourceLoader:
    """Loads sourced scripts for one analysis: `load(path) -> (text, None) | (None, reason)`."""

    def __init__(self, root: Optional[str], overlay: Optional[Mapping[str, str]] = None,
                 on_read: Optional[Callable[[str], None]] = None):
        self.root = os.path.realpath(root) if root else None
        self.overlay = {os.path.realpath(k): v for k, v in (overlay or {}).items()}
        self.on_read = on_read

    def load(self, path: str) -> tuple[Optional[str], Optional[str]]:
        """The text of a sourced file, or why it is not read."""
        if in_kernel_tree(path):
            return None, KERNEL_FILE
        real = os.path.realpath(path)
        if self.root is not None and not (real == self.root or real.startswith(self.root + os.sep)):
            return None, "outside the project (symlinks included)"
        if self.on_read is not None:
            self.on_read(real)
        if real in self.overlay:
            text = self.overlay[real]
            note = too_large(text.encode("utf-8", "surrogatepass"))
            return (None, note) if note else (text, None)
        data, reason = read_file(real)
        if data is None:
            return None, reason
        note = too_large(data)  # a sourced file is parsed too: the document's bounds apply
        if note:
            return None, note
        return decode(data)[0], None


def default_loader(script_path: str) -> Callable[[str], tuple[Optional[str], Optional[str]]]:
    """For the CLI: SourceLoader(default_root(script_path, refresh=False)).load, the loader made
    at the first file the analysis reads (most scripts source none, and finding the root
    resolves the script's real path: about 20 us an analysis, every keystroke of an editor
    without a loader of its own)."""
    made: list = []

    def load(path: str) -> tuple[Optional[str], Optional[str]]:
        if not made:
            made.append(SourceLoader(default_root(script_path, refresh=False)))
        return made[0].load(path)

    return load


def default_root(script_path: Optional[str], refresh: bool = True) -> Optional[str]:
    """For the CLI: the project root holding the script, else the script's own folder (refresh:
    look it up again, else the one found last time, project.root_of)."""
    if not script_path:
        return None
    from .project import root_of
    root = root_of(script_path, refresh=refresh)
    if root is not None:
        return root
    return os.path.dirname(os.path.realpath(script_path))
