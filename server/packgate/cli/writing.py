"""Writing a fixed script back: never truncate the user's launcher in place.

The new bytes go to a temporary file beside the original (same folder, so the same file
system), are flushed to disk, take the original's mode, and are renamed over it in one step: a
full disk or a kill leaves either the old file or the new one, never half of either.

A file with more than one name (a hard link) is the exception: a rename would give only this
name the fixed text and leave the others the old one, so it is rewritten in place, through one
descriptor that reads it, checks it is still what was analysed, and writes the fixed bytes
(the old ones are written back when that fails).
"""

from __future__ import annotations

import os
import stat
import tempfile


class ChangedOnDisk(Exception):
    """The file is no longer what was read, so the fixes computed from it must not be written."""


def replace_file(path: str, data: bytes, *, expected: bytes) -> None:
    """Replace the file at path with data, atomically, if it still holds expected.

    A symbolic link is followed: its target is replaced and the link stays. Raises
    ChangedOnDisk when the content differs from expected, OSError when writing fails (the
    original is then untouched and no temporary file is left)."""
    target = os.path.realpath(path)
    st = os.stat(target)
    if st.st_nlink > 1:
        _rewrite_in_place(target, data, expected, path)
        return
    if _read(target) != expected:
        raise ChangedOnDisk(path)
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".packgate", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(st.st_mode))
        try:
            os.chown(temporary, st.st_uid, st.st_gid)
        except OSError:  # only the owner's group may be set by others; the mode is what matters
            pass
        if _read(target) != expected:  # changed while the fixes were being written
            raise ChangedOnDisk(path)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _rewrite_in_place(target: str, data: bytes, expected: bytes, path: str) -> None:
    """Overwrite a hard-linked file through one descriptor, so every name sees the new text;
    ChangedOnDisk when it no longer holds expected (nothing is written then)."""
    with open(target, "r+b") as handle:
        if handle.read() != expected:
            raise ChangedOnDisk(path)
        try:
            handle.seek(0)
            handle.write(data)
            handle.truncate()
            handle.flush()
            os.fsync(handle.fileno())
        except OSError:
            # a full disk half way: put the text that was there back (it fitted before)
            try:
                handle.seek(0)
                handle.write(expected)
                handle.truncate()
                handle.flush()
            except OSError:
                pass
            raise


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def create_file(path: str, data: bytes) -> None:
    """Make the file path with data, atomically, only if there is none.

    The bytes go to a temporary file beside it, which is then linked to path: a link fails
    where a name already exists (ChangedOnDisk: something made it since packgate looked), and a
    reader never sees half the file. The mode is a new file's under the umask."""
    folder, name = os.path.split(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".packgate", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        mask = os.umask(0o022)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise ChangedOnDisk(path) from None
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass
