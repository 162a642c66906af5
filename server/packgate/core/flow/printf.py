"""What bash's `printf -v NAME FORMAT ARGUMENT...` puts in NAME, for the formats a launcher
writes (`%s`, `%d`, `%i`, `%%` and plain text); None for any other (a width, `%x`, `%b`, an
escape), which the walk then reads as a value the script cannot know."""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_SPEC = re.compile(r"%(.)", re.S)
_INTEGER = re.compile(r"[+-]?(?:[1-9][0-9]*|0)")


def formatted(fmt: str, args: list) -> Optional[str]:
    """The text printf makes of fmt and args (the format used again while arguments are left, as
    bash does), or None where this does not know bash's answer."""
    if "\\" in fmt:
        return None
    pieces, text, at = [], "", 0  # pieces: literal text and conversion letters, in turn
    for m in _SPEC.finditer(fmt):
        text += fmt[at:m.start()]
        letter, at = m.group(1), m.end()
        if letter == "%":
            text += "%"
        elif letter in "sdi":
            pieces += [text, letter]
            text = ""
        else:
            return None  # flags, a width, another conversion
    if "%" in fmt[at:]:
        return None  # a `%` at the very end
    pieces.append(text + fmt[at:])
    conversions = len(pieces) // 2
    out, i = [], 0
    while True:
        for k, piece in enumerate(pieces):
            if k % 2 == 0:
                out.append(piece)
                continue
            arg = args[i] if i < len(args) else None
            i += 1
            if piece == "s":
                out.append(arg or "")
            elif arg is None or arg == "":
                out.append("0")
            elif _INTEGER.fullmatch(arg):
                out.append(str(int(arg)))
            else:
                return None  # `0x10`, `010`, ` 1`, `'a`: bash reads them in ways not followed here
        if not conversions or i >= len(args):
            return "".join(out)
