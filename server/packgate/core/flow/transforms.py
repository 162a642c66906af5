"""What bash's parameter transforms make of a known value: `${#X}`, the pattern removals
`${X#p}` `${X##p}` `${X%p}` `${X%%p}`, the replacements `${X/p/r}` `${X//p/r}` `${X/#p/r}`
`${X/%p/r}`, the substring `${X:o:l}` and the case changes `${X^}` `${X^^}` `${X,}` `${X,,}`
`${X@U}` `${X@L}` `${X@u}`.

Only ASCII text is followed: the length and the case of other characters depend on the locale
bash runs in, which the script cannot know. None stands for "not followed here", which the walk
reads as an unknown value."""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_LONGEST_TEXT = 4096  # the matching below tries every span; longer values are left unknown
_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "xdigit": "0-9A-Fa-f", "cntrl": "\\x00-\\x1f\\x7f",
    "print": "\\x20-\\x7e", "graph": "\\x21-\\x7e", "word": "a-zA-Z0-9_",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
}


def glob_regex(pattern: str) -> Optional["re.Pattern[str]"]:
    """A bash pattern (`*`, `?`, `[...]`, backslash escapes) as a regex for fullmatch; None for
    what is not followed here (non-ASCII, extglob-like parentheses, [=a=] and [.a.])."""
    if not pattern.isascii() or "(" in pattern or ")" in pattern:
        return None
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(re.escape(pattern[i + 1]) if i + 1 < n else re.escape("\\"))
            i += 2
        elif c == "*":
            out.append(".*")
            i += 1
        elif c == "?":
            out.append(".")
            i += 1
        elif c == "[":
            found = _bracket(pattern, i)
            if found is None:
                return None
            text, i = found
            out.append(text)
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out), re.S)


def _bracket(pattern: str, i: int) -> Optional[tuple]:
    """The regex of the bracket expression at pattern[i] ("[") and the index after it; a `[`
    without its `]` is a literal `[`; None for equivalence and collating classes."""
    j, n = i + 1, len(pattern)
    negate = j < n and pattern[j] in "!^"
    j += negate
    items: list = []
    first = True
    while j < n and (pattern[j] != "]" or first):
        first = False
        c = pattern[j]
        if c == "[" and j + 1 < n and pattern[j + 1] in ":=.":
            close = pattern.find(pattern[j + 1] + "]", j + 2)
            if close < 0 or pattern[j + 1] != ":":
                return None
            cls = _CLASSES.get(pattern[j + 2:close])
            if cls is None:
                return None
            items.append(cls)
            j = close + 2
            continue
        if c == "\\" and j + 1 < n:
            c = pattern[j + 1]
            j += 1
        if j + 2 < n and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            high = pattern[j + 2]
            if high == "\\" and j + 3 < n:
                high = pattern[j + 3]
                j += 1
            if high < c:  # an empty range matches nothing
                items.append("")
            else:
                items.append(re.escape(c) + "-" + re.escape(high))
            j += 3
            continue
        items.append(re.escape(c))
        j += 1
    if j >= n:  # no closing bracket: the `[` is literal
        return re.escape("["), i + 1
    body = "".join(items)
    if not body:
        return ("[^\\s\\S]" if not negate else "[\\s\\S]"), j + 1
    return "[" + ("^" if negate else "") + body + "]", j + 1


def removed(text: str, op: str, pattern: str) -> Optional[str]:
    """`${X#p}` `${X##p}` `${X%p}` `${X%%p}`: text without its shortest or longest matching
    prefix or suffix."""
    rx = _regex(text, pattern)
    if rx is None:
        return None
    n = len(text)
    if op in ("#", "##"):
        ends = range(n + 1) if op == "#" else range(n, -1, -1)
        for end in ends:
            if rx.fullmatch(text, 0, end):
                return text[end:]
        return text
    starts = range(n, -1, -1) if op == "%" else range(n + 1)
    for start in starts:
        if rx.fullmatch(text, start, n):
            return text[:start]
    return text


def replaced(text: str, op: str, pattern: str, replacement: str) -> Optional[str]:
    """`${X/p/r}` `${X//p/r}` `${X/#p/r}` `${X/%p/r}`: the longest match, the first one or
    each from the left, anchored at the start or the end, replaced."""
    if "&" in replacement:  # patsub_replacement: an & may stand for the match
        return None
    if "[]" in pattern or "[!]" in pattern or "[^]" in pattern:
        return None  # bash splits ${X/p/r} before it reads p's brackets: a `]` first is not one
    rx = _regex(text, pattern)
    if rx is None:
        return None
    n = len(text)
    if op == "/#":
        for end in range(n, -1, -1):
            if rx.fullmatch(text, 0, end):
                return replacement + text[end:]
        return text
    if op == "/%":
        for start in range(n + 1):
            if rx.fullmatch(text, start, n):
                return text[:start] + replacement
        return text
    if pattern == "":
        return text
    if n == 0:  # an empty value is replaced when the pattern matches it
        return replacement if rx.fullmatch("") else ""
    out, i, done = [], 0, False
    while i < n:
        end = _longest_at(rx, text, i) if not done else None
        if end is None:
            out.append(text[i])
            i += 1
            continue
        out.append(replacement)
        done = op == "/"
        if end == i:  # an empty match replaces nothing: the character after it stays
            out.append(text[i])
            i += 1
        else:
            i = end
    return "".join(out)


def _longest_at(rx, text: str, i: int) -> Optional[int]:
    for end in range(len(text), i - 1, -1):
        if rx.fullmatch(text, i, end):
            return end
    return None


def _regex(text: str, pattern: str):
    if not text.isascii() or len(text) > _LONGEST_TEXT:
        return None
    return glob_regex(pattern)


def substring(text: str, offset: int, length: Optional[int]) -> Optional[str]:
    """`${X:o}` `${X:o:l}`: a negative offset counts from the end, a negative length is where to
    stop counted from the end; None where bash reports an error instead."""
    if not text.isascii():
        return None
    n = len(text)
    if offset < 0:
        offset += n
        if offset < 0:
            return ""
    if offset > n:
        return ""
    if length is None:
        return text[offset:]
    end = offset + length if length >= 0 else n + length
    if end < offset:
        return None  # bash: "substring expression < 0", the command fails
    return text[offset:end]


def case_changed(text: str, op: str) -> Optional[str]:
    """`${X^}` `${X^^}` `${X,}` `${X,,}` `${X@U}` `${X@L}` `${X@u}` on ASCII text."""
    if not text.isascii():
        return None
    if op in ("^^", "@U"):
        return text.upper()
    if op in (",,", "@L"):
        return text.lower()
    if op in ("^", "@u"):
        return text[:1].upper() + text[1:]
    if op == ",":
        return text[:1].lower() + text[1:]
    return None


def length(text: str) -> Optional[str]:
    """`${#X}`: the number of characters (of an ASCII value, the same in every locale)."""
    return str(len(text)) if text.isascii() else None
