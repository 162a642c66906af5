"""Brace expansion: `OFFLINE_PACKING_{BMR,DATA}=1` is two words, `{01..3}` three, before any
other expansion and wherever bash splits words (a command's arguments, a declaration's and
`unset`'s, an array's elements, a `for` loop's items; never a plain assignment's value).

A word is read as tokens: each character of its unquoted literal text (a backslash-escaped one
is text, never syntax) and, whole, each piece that is quoted or expands (a string, `$X`,
`${X}`, `$(...)`). The expansion itself works on tokens alone (`expand`); the builder turns
each resulting token list back into a Word (`braced_words`)."""

from __future__ import annotations

import re

from .grammar import kinds
from .model import Lit, Word

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

MAX_WORDS = 256  # more than this from one word (`{1..100000}`): left as written, unexpanded
MAX_WORD_BYTES = 4096  # a longer word is left as written (its characters would each be a token)
MAX_TOKENS = 65536  # the words of one expansion, in tokens all told: past it, left as written

# unquoted literal text; each character may be brace syntax
_TEXT = kinds("word", "number", "variable_name", "brace_expression", "=", "+=")
# pieces of a word taken whole (their parts from the word builder)
_WHOLE = kinds("string", "raw_string", "simple_expansion", "expansion", "command_substitution",
               "arithmetic_expansion", "ansi_c_string", "translated_string")
# nodes whose children continue the same word
_JOINED = kinds("concatenation", "variable_assignment")
# the word nodes a brace group can be in
BRACED = kinds("concatenation", "brace_expression")

_SEQUENCE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?")


class Char:
    """One character of unquoted text: its byte span, and whether it can be brace syntax."""

    __slots__ = ("text", "start", "end", "syntax")

    def __init__(self, text: str, start: int, end: int, syntax: bool) -> None:
        self.text, self.start, self.end, self.syntax = text, start, end, syntax


def may_brace(data: bytes, start: int, end: int) -> bool:
    """A cheap first look at the bytes [start, end): a `{` that does not open a `${`, and a `}`
    and a `,` or `..` after it."""
    i = data.find(b"{", start, end)
    while i >= 0:
        if i == start or data[i - 1] != 36 or (i - 2 >= start and data[i - 2] == 92):  # not `${` (but `\${`)
            return data.find(b"}", i, end) >= 0 and (data.find(b",", i, end) >= 0 or data.find(b"..", i, end) >= 0)
        i = data.find(b"{", i + 1, end)
    return False


def tokens(nodes: list, data: bytes, base: int) -> Optional[list]:
    """The tokens of one word made of nodes (adjacent in the text): Chars for unquoted text,
    the nodes themselves for quoted or expanding pieces; None for a node of another kind."""
    out: list = []
    for node in nodes:
        k = node.kind_id
        if k in _TEXT:
            _chars(data[node.start_byte:node.end_byte].decode("utf-8", "replace"), node.start_byte + base, out)
        elif k in _WHOLE:
            out.append(node)
        elif k in _JOINED:
            inner = tokens(node.children, data, base)
            if inner is None:
                return None
            out.extend(inner)
        else:
            return None
    return out


def _chars(text: str, at: int, out: list) -> None:
    """text's characters as Chars starting at byte at (`\\x`: the text x, not syntax)."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        size = len(ch.encode("utf-8", "surrogatepass"))
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            width = size + len(nxt.encode("utf-8", "surrogatepass"))
            out.append(Char(nxt, at, at + width, False))
            at += width
            i += 2
            continue
        out.append(Char(ch, at, at + size, ch in "{},"))
        at += size
        i += 1


class _TooLarge(Exception):
    """An expansion past MAX_WORDS words or MAX_TOKENS tokens."""


def expand(toks: list) -> Optional[list]:
    """The token lists bash's brace expansion makes of one word's tokens, in bash's order, or
    None when no brace group in it expands (or it would make more than MAX_WORDS words, or
    MAX_TOKENS tokens in all: `{a,b}` written 500 times would make 2**500)."""
    try:
        return _expand(toks, 0, [MAX_TOKENS])
    except _TooLarge:
        return None


def _expand(toks: list, start: int, budget: list) -> Optional[list]:
    """expand() from token index start on (the tokens before it hold no group that expands);
    budget: [tokens still allowed], shared by the whole expansion."""
    i = start
    while True:
        i = _next_open(toks, i)
        if i is None:
            return None
        close, commas = _group(toks, i)
        if close is None:
            i += 1
            continue
        if commas:
            pieces, prev = [], i + 1
            for c in commas + [close]:
                pieces.append(toks[prev:c])
                prev = c + 1
        else:
            pieces = _sequence(toks[i + 1:close])
            if pieces is None:
                i += 1
                continue
        head, tail = toks[:i], toks[close + 1:]
        results: list = []
        for piece in pieces:
            budget[0] -= len(head) + len(piece) + len(tail)
            if budget[0] < 0:
                raise _TooLarge
            word = head + piece + tail
            more = _expand(word, i, budget)  # groups nested in the piece, or later in the word
            results.extend(more if more is not None else [word])
            if len(results) > MAX_WORDS:
                raise _TooLarge
        return results


def _next_open(toks: list, i: int) -> Optional[int]:
    """The index of the next unquoted `{` from i on (not the `{` of a `${`, which is a node)."""
    for j in range(i, len(toks)):
        t = toks[j]
        if t.__class__ is Char and t.syntax and t.text == "{":
            return j
    return None


def _group(toks: list, i: int) -> tuple:
    """The `}` closing the `{` at i and the commas at its own depth: (index or None, [indexes])."""
    depth, commas = 0, []
    for j in range(i + 1, len(toks)):
        t = toks[j]
        if t.__class__ is not Char or not t.syntax:
            continue
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            if depth == 0:
                return j, commas
            depth -= 1
        elif depth == 0:
            commas.append(j)
    return None, []


def _sequence(inner: list) -> Optional[list]:
    """`{1..5}`, `{05..1..2}`, `{a..e}`: the pieces of a sequence expression, or None."""
    if not inner or any(t.__class__ is not Char for t in inner):
        return None
    m = _SEQUENCE.fullmatch("".join(t.text for t in inner))
    if m is None:
        return None
    at, end = inner[0].start, inner[-1].end
    if m.group(1) is not None:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        if abs(b - a) // step + 1 > MAX_WORDS:
            return None
        width = max(len(m.group(1)), len(m.group(2))) if _padded(m.group(1)) or _padded(m.group(2)) else 0
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        texts = [_pad(v, width) for v in values]
    else:
        a, b = ord(m.group(4)), ord(m.group(5))
        step = abs(int(m.group(6) or 1)) or 1
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        texts = [chr(v) for v in values]
    return [[Char(t, at, end, False)] for t in texts]


def _padded(number: str) -> bool:
    """`01`, `-01`: bash pads the sequence to the wider end's width."""
    digits = number.lstrip("-")
    return len(digits) > 1 and digits.startswith("0")


def _pad(value: int, width: int) -> str:
    """value written at least width characters wide, zeros after any sign."""
    if not width:
        return str(value)
    sign = "-" if value < 0 else ""
    return sign + str(abs(value)).zfill(width - len(sign))


def braced_words(builder, nodes: list, d: int) -> Optional[list]:
    """The Words bash's brace expansion makes of one word written as nodes (adjacent), or None
    when nothing in it expands. Each Word spans the whole written word; quoted and expanding
    pieces are built anew for each (a record belongs to one word: a move moves it once), their
    occurrences noted once."""
    results = expansion(builder, nodes)
    if results is None:
        return None
    words, noted = [], None
    for toks in results:
        w = _word(builder, toks, nodes, d)
        if w is None:
            continue  # `{,x}`: an empty unquoted word is no word
        words.append(w)
        if noted is None:
            noted = len(builder.occurrences)
        else:
            del builder.occurrences[noted:]
    return words


def expansion(builder, nodes: list) -> Optional[list]:
    """The token lists of the words brace expansion makes of one word written as nodes, or None
    (nothing expands, or the word is longer than MAX_WORD_BYTES)."""
    if nodes[-1].end_byte - nodes[0].start_byte > MAX_WORD_BYTES:
        return None
    toks = tokens(nodes, builder.data, builder.base)
    return expand(toks) if toks is not None else None


def words_of(builder, node, d: int) -> list:
    """The Words one word node makes: those of its brace expansion, or the builder's one."""
    if node.kind_id in BRACED and may_brace(builder.data, node.start_byte, node.end_byte):
        found = braced_words(builder, [node], d)
        if found is not None:
            return found
    return [builder.word(node, d)]


def joined_word(builder, nodes: list, d: int) -> Optional[Word]:
    """One Word of nodes with no gap between them, as bash reads them (None: a node of a kind
    this cannot join, or longer than MAX_WORD_BYTES)."""
    if nodes[-1].end_byte - nodes[0].start_byte > MAX_WORD_BYTES:
        return None
    toks = tokens(nodes, builder.data, builder.base)
    return _word(builder, toks, nodes, d) if toks is not None else None


def _word(builder, toks: list, nodes: list, d: int) -> Optional[Word]:
    """The Word of one token list spanning nodes (None when it holds nothing)."""
    parts: list = []
    run: list = []
    for t in toks:
        if t.__class__ is Char:
            run.append(t)
            continue
        _flush(run, parts)
        builder.parts(t, parts, d + 1, False)
    _flush(run, parts)
    if not parts:
        return None
    data, base = builder.data, builder.base
    raw = data[nodes[0].start_byte:nodes[-1].end_byte].decode("utf-8", "replace")
    return builder._finished(Word(parts, nodes[0].start_byte + base, nodes[-1].end_byte + base, "", raw))


def _flush(run: list, parts: list) -> None:
    """Characters gathered so far, as one Lit (spanning the first to the last), into parts."""
    if run:
        parts.append(Lit("".join(c.text for c in run), run[0].start, run[-1].end))
        run.clear()


def word_nodes(children: list) -> list:
    """Named children grouped into shell words: nodes with no gap between them are one word
    (`OFFLINE_PACKING_{BMR,DATA}=1` after `export` reads as a name and then the rest)."""
    groups: list = []
    for c in children:
        if groups and groups[-1][-1].end_byte == c.start_byte:
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups
