"""Edits of files other than the analysed document (Edit.path): reading such a file back,
checking it is still what its fix was computed on, and the bytes the edits make of it."""

from __future__ import annotations

import hashlib
import os

from .records import record
from .text import apply_edits

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Iterable, Optional


def digest(data: bytes) -> str:
    """The sha256 an Edit of another file keeps of the bytes its offsets count in."""
    return hashlib.sha256(data).hexdigest()


def document_edits(edits: Iterable) -> list:
    """The edits of the analysed document itself (those without a path)."""
    return [e for e in edits if e.path is None]


def outside_edits(edits: Iterable) -> dict:
    """path -> the edits of that other file, in the order given."""
    out: dict = {}
    for e in edits:
        if e.path is not None:
            out.setdefault(e.path, []).append(e)
    return out


@record(frozen=True)
class Change:
    """What the edits of one other file make of it: its bytes now (None: it does not exist,
    the edits create it) and after."""

    path: str
    before: Optional[bytes]
    after: bytes


class Stale(Exception):
    """The other file is no longer what its fix was computed on (made, removed or edited since)."""


def current(path: str) -> Optional[bytes]:
    """The bytes of path now, None when there is no such file (or it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def change_of(path: str, edits: list) -> Change:
    """The Change the edits of one other file make, from what is on disk; Stale when the file
    is not what they were computed on."""
    before = current(path)
    creates = any(e.create for e in edits)
    if creates:
        if before is not None or os.path.lexists(path):
            raise Stale(path)
    elif before is None or any(e.digest and e.digest != digest(before) for e in edits):
        raise Stale(path)
    return Change(path, before, apply_edits(before or b"", edits))


def source_of(edit):
    """The Source positions of an edit of another file count in (an empty one for a file the
    edit creates); None when the file is not what the edit was computed on."""
    from .text import Source
    if edit.create:
        return Source("")
    data = current(edit.path)
    if data is None or (edit.digest and edit.digest != digest(data)):
        return None
    return Source(data.decode("utf-8", "replace"))
