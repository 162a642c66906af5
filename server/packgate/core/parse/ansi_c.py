"""The text bash makes of an ANSI-C quoted string, `$'...'`: its backslash escapes decoded as
bash's ansicstr() decodes them (checked against bash in tests/core/test_ansi_c.py)."""

from __future__ import annotations

# \a \b \e \E \f \n \r \t \v \\ \' \" \?
_SIMPLE = {97: 7, 98: 8, 101: 27, 69: 27, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11,
           92: 92, 39: 39, 34: 34, 63: 63}
_OCTAL = b"01234567"
_HEX = b"0123456789abcdefABCDEF"


def decode(body: bytes) -> str:
    """The value of `$'body'`: escapes decoded, and cut at the first NUL byte (bash's strings
    end there); bytes that are not UTF-8 read as U+FFFD."""
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != 92 or i + 1 >= n:  # not a backslash, or one at the very end
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        i += 2
        if e in _SIMPLE:
            out.append(_SIMPLE[e])
        elif e in _OCTAL:  # \nnn: one to three octal digits, the low byte kept
            v, j = e - 48, i
            while j < n and j < i + 2 and body[j] in _OCTAL:
                v = v * 8 + body[j] - 48
                j += 1
            out.append(v & 0xFF)
            i = j
        elif e == 120:  # \xHH, one or two digits; \x{H...} as many as there are
            v, j = 0, i
            braced = j < n and body[j] == 123
            if braced:
                j += 1
            start = j
            while j < n and body[j] in _HEX and (braced or j < start + 2):
                v = v * 16 + int(chr(body[j]), 16)
                j += 1
            if braced and j < n and body[j] == 125:
                j += 1
            if j == start and not braced:
                out += b"\\x"  # no digit: passed through
            else:
                out.append(v & 0xFF)
            i = j
        elif e in (117, 85):  # \uHHHH, \UHHHHHHHH: the character, in UTF-8
            v, j, most = 0, i, 4 if e == 117 else 8
            while j < n and j < i + most and body[j] in _HEX:
                v = v * 16 + int(chr(body[j]), 16)
                j += 1
            if j == i:
                out += b"\\" + bytes([e])
            else:
                out += _utf8(v)
            i = j
        elif e == 99 and i < n:  # \cX: the control character
            x = body[i]
            i += 1
            if x == 92 and i < n and body[i] == 92:
                i += 1  # `\c\\` is control-backslash
            out.append(0x7F if x == 63 else x & 0x1F)  # `\ca` and `\cA` alike: case is in bit 0x20
        else:  # an escape bash does not know: kept as written
            out += b"\\" + bytes([e])
    nul = out.find(0)
    if nul >= 0:
        del out[nul:]
    return out.decode("utf-8", "replace")


def _utf8(v: int) -> bytes:
    """A code point in UTF-8 as bash writes it: surrogates as they are, and past U+10FFFF the
    original scheme's longer forms, up to six bytes (nothing from 2**31 on)."""
    if v < 0x80:
        return bytes([v])
    for size, limit in ((2, 0x800), (3, 0x10000), (4, 0x200000), (5, 0x4000000), (6, 0x80000000)):
        if v < limit:
            tail = [0x80 | (v >> (6 * k)) & 0x3F for k in range(size - 2, -1, -1)]
            return bytes([(0xFF << (8 - size)) & 0xFF | v >> (6 * (size - 1))] + tail)
    return b""
