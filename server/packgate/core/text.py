"""Text, bytes and positions: the one place where offsets are converted between encodings.

Offsets inside packgate are byte offsets into the UTF-8 encoding of the document (what
tree-sitter reports). Lines break at ``\\n``, ``\\r\\n`` and a lone ``\\r``, as LSP defines them;
form feed and U+2028 are ordinary characters here.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate, repeat
from operator import add

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Iterable

ENCODINGS = ("utf-8", "utf-16", "utf-32")


class Source:
    """A document: its text, its UTF-8 bytes and a line index over those bytes."""

    __slots__ = ("text", "data", "line_starts", "eol", "_ascii")

    def __init__(self, text: str):
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self._ascii = len(self.data) == len(text)
        self.line_starts = [0] + _line_starts(self.data, 0, len(self.data))
        self._set_eol()

    def _set_eol(self) -> None:
        data = self.data
        # counting a two-byte needle scans at a few ns a byte; a lone \r is one memchr away
        crlf = data.count(b"\r\n") if b"\r" in data else 0
        self.eol = "\r\n" if crlf and crlf * 2 >= data.count(b"\n") else "\n"

    def edited(self, start: int, end: int, inserted: bytes, text: str | None = None) -> "Source":
        """This document with bytes start..end replaced: the line index is scanned again only
        around the edit (text: the new text when the caller has it already)."""
        data = self.data[:start] + inserted + self.data[end:]
        new = Source.__new__(Source)
        new.data = data
        if text is None and self._ascii and inserted.isascii():
            # byte offsets are character offsets here: slicing the text costs a tenth of decoding it
            text = self.text[:start] + inserted.decode("ascii") + self.text[end:]
        new.text = text if text is not None else data.decode("utf-8", "surrogatepass")
        new._ascii = len(data) == len(new.text)
        starts = self.line_starts
        delta = len(inserted) - (end - start)
        # from the line before the edit's (its \r may now pair with an inserted \n) to the
        # first line start after the edit (it covers a \n there that an inserted \r pairs with)
        i = max(0, bisect_right(starts, start) - 2)
        j = bisect_right(starts, end)
        lo = starts[i]
        hi = starts[j] + delta if j < len(starts) else len(data)
        new.line_starts = starts[:i + 1] + _line_starts(data, lo, hi) + [x + delta for x in starts[j + 1:]]
        new._set_eol()
        return new

    @classmethod
    def from_bytes(cls, raw: bytes) -> "Source":
        """Decode raw file bytes (invalid UTF-8 replaced, a BOM kept as a character)."""
        return cls(raw.decode("utf-8", "replace"))

    @property
    def line_count(self) -> int:
        """Number of lines (a final line without a line end counts)."""
        return len(self.line_starts)

    def line_of(self, offset: int) -> int:
        """0-based line of a byte offset."""
        return bisect_right(self.line_starts, offset) - 1

    def line_end(self, line: int, *, with_eol: bool = False) -> int:
        """Byte offset of the end of a line, before its line ending unless with_eol."""
        if line + 1 < len(self.line_starts):
            nxt = self.line_starts[line + 1]
            if with_eol:
                return nxt
            if self.data[nxt - 2:nxt] == b"\r\n":
                return nxt - 2
            return nxt - 1
        return len(self.data)

    def line_bytes(self, line: int) -> bytes:
        """The bytes of a line without its ending."""
        return self.data[self.line_starts[line]:self.line_end(line)]

    def position(self, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
        """Byte offset -> (line, character), both 0-based, characters in the given encoding."""
        offset = max(0, min(offset, len(self.data)))
        line = self.line_of(offset)
        start = self.line_starts[line]
        end = self.line_end(line)
        if offset > end:  # inside a \r\n pair: clamp to the line end
            offset = end
        if encoding == "utf-8" or self._ascii:
            return line, offset - start
        prefix = self.data[start:offset]
        if prefix.isascii():  # one byte, one code point, one UTF-16 unit
            return line, offset - start
        chunk = _decode(prefix)
        if encoding == "utf-32":
            return line, len(chunk)
        return line, _utf16_len(chunk)

    def offset(self, line: int, character: int, encoding: str = "utf-16") -> int:
        """(line, character) -> byte offset, clamped into the document like LSP asks."""
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.data)
        start = self.line_starts[line]
        end = self.line_end(line)
        character = max(0, character)
        if encoding == "utf-8" or self._ascii:
            off = min(start + character, end)
            # never land inside a multi-byte character
            while off > start and off < end and (self.data[off] & 0xC0) == 0x80:
                off -= 1
            return off
        text = _decode(self.data[start:end])
        units = 0
        pos = 0
        for ch in text:
            width = 1 if encoding == "utf-32" else (2 if ord(ch) > 0xFFFF else 1)
            if units + width > character:
                break
            units += width
            pos += len(ch.encode("utf-8", "surrogatepass"))
        return min(start + pos, end)

    def user_position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) with columns counting code points: the CLI's view."""
        line, col = self.position(offset, "utf-32")
        return line + 1, col + 1

    def slice(self, start: int, end: int) -> str:
        """Text of a byte range."""
        return _decode(self.data[start:end])

    def indentation(self, offset: int) -> str:
        """The leading whitespace of the line that holds offset."""
        line = self.line_bytes(self.line_of(offset))
        stripped = line.lstrip(b" \t")
        return line[: len(line) - len(stripped)].decode("utf-8", "replace")


def _decode(data: bytes) -> str:
    """Bytes of a Source back to text: lone surrogates (legal in LSP documents) stay one
    character; a cut through a character (an offset inside it) is replaced, never raised."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def _utf16_len(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def tree_point(data: bytes, offset: int) -> tuple[int, int]:
    """A byte offset as tree-sitter's point: (row, byte column), rows counted at \\n only (a
    lone \\r, a line end for LSP, does not start a row for tree-sitter)."""
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def apply_edits(data: bytes, edits: Iterable) -> bytes:
    """Apply byte-range edits (objects with start, end, text); overlapping later edits are dropped."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out = []
    pos = 0
    for edit in ordered:
        if edit.start < pos:
            continue
        out.append(data[pos:edit.start])
        out.append(edit.text.encode("utf-8"))
        pos = edit.end
    out.append(data[pos:])
    return b"".join(out)


def _line_starts(data: bytes, lo: int, hi: int) -> list:
    """The line starts after lo, up to hi, of the line ends found from lo on (\n, \r\n, a lone
    \r); hi is a line start or the end of data."""
    find = data.find
    if find(b"\r", lo, hi) < 0:  # fast path: only \n line ends, each line's length + 1 summed up (in C)
        lengths = map(len, data[lo:hi].split(b"\n"))
        return list(accumulate(map(add, lengths, repeat(1)), initial=lo))[1:-1]
    starts: list = []
    n = len(data)
    pos = lo
    while pos < hi:
        nl = find(b"\n", pos, hi)
        cr = find(b"\r", pos, hi)
        if nl < 0 and cr < 0:
            break
        if cr < 0 or (0 <= nl < cr):
            starts.append(nl + 1)
            pos = nl + 1
        elif cr + 1 < n and data[cr + 1] == 0x0A:
            starts.append(cr + 2)
            pos = cr + 2
        else:
            starts.append(cr + 1)
            pos = cr + 1
    return starts
