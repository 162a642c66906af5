"""One Python file as the contract index reads it: the byte pre-filter, then syntax trees of
only the parts that can matter (a file that only reads the environment is parsed function by
function around its hits; a file that defines options is parsed whole).

Parsing is what a cold index costs (about 190 files of a few hundred lines: a full `ast.parse`
of each is more than a second on a 2-core machine), so a file whose hits sit in a few
functions is parsed as those functions. A piece that does not parse on its own (the
indentation guess was wrong) falls back to the whole file, so the guess costs time, never
correctness: tests/core/test_contract_index.py compares both ways on every input.
"""

from __future__ import annotations

import ast
import re

from ..records import record

ENV_MARKS = (b"environ", b"getenv")
OPTION_MARKS = (b"add_argument", b"ArgumentParser", b"parse_known_args", b"ignore_unknown_args")
_OPENERS = (b"def ", b"async def ")
# lines at a statement's indentation that continue it rather than start the next one
_CONTINUERS = (b")", b"]", b"}", b"else", b"elif", b"except", b"finally", b"@")
_HEADER = (b"import ", b"from ")


@record
class Piece:
    """A parsed part of a file: its tree and where its first line and column sit in the file."""

    tree: object  # ast.Module
    line0: int  # lines of the tree start at line0 + 1 of the file
    col0: int  # columns of the tree are col0 bytes left of the file's
    header: bool = False  # an import or module-level assignment, read for names only


@record
class Parsed:
    """A file's parsed pieces (empty when it was skipped) and why it was skipped, if it was."""

    pieces: list
    lines: list  # the file's lines, as bytes
    whole: bool  # pieces is one tree of the whole file
    skipped: str = ""
    data: bytes = b""


def wanted(data: bytes) -> tuple[bool, bool]:
    """(reads the environment, defines options), by bytes alone: nothing else is parsed."""
    return any(m in data for m in ENV_MARKS), any(m in data for m in OPTION_MARKS)


def parse(data: bytes, *, whole: bool) -> Parsed:
    """The file's pieces: the whole tree when whole, else the functions and top-level
    statements holding an environment mark plus the imports."""
    lines = data.split(b"\n")
    if b"\0" in data:
        return Parsed([], lines, True, "NUL bytes: not Python source")
    if not whole and b"coding" not in b"\n".join(lines[:2]):
        try:
            data.decode("utf-8")  # the pieces must not hide what a whole parse refuses
        except UnicodeDecodeError:
            return Parsed([], lines, True, "not UTF-8 (and no coding declaration)")
    if not whole and b"\t" not in data:
        pieces = _pieces(data, lines)
        if pieces is not None:
            return Parsed(pieces, lines, False, "", data)
    tree, why = _parse(data)
    if tree is None:
        return Parsed([], lines, True, why)
    return Parsed([Piece(tree, 0, 0)], lines, True, "", data)


def _parse(data: bytes):
    try:
        # bytes: Python's own rules for the encoding (PEP 263 cookie, else UTF-8, else an error)
        return ast.parse(data), ""
    except SyntaxError as exc:
        msg = str(getattr(exc, "msg", exc))
        return None, ("not UTF-8 (and no coding declaration)" if "decode" in msg or "utf-8" in msg.lower()
                      else f"syntax error at line {exc.lineno}: {msg}")
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        return None, f"cannot parse: {type(exc).__name__}"


def _indent(line: bytes) -> int:
    """Leading spaces of a code line; -1 for a blank or comment line."""
    stripped = line.lstrip(b" ")
    if not stripped.strip() or stripped.startswith(b"#"):
        return -1
    return len(line) - len(stripped)


def _pieces(data: bytes, lines: list):
    """The pieces around the environment marks, or None to parse the whole file instead."""
    indents = _Indents(lines)
    spans = []
    marked = dict(marked_lines(data))  # line -> its offset
    aliases = _aliases([lines[i] for i in marked])
    if aliases:
        for i, line in enumerate(lines):
            if i not in marked and any(found(line) for found in aliases):
                marked[i] = sum(len(l) + 1 for l in lines[:i])
    triple = b'"""' in data or b"'''" in data
    for i in sorted(marked):
        if triple and (data.count(b'"""', 0, marked[i]) + data.count(b"'''", 0, marked[i])) % 2:
            return None  # inside a triple-quoted string (or the count is fooled): parse the whole file
        span = _enclosing(lines, indents, i)
        if span is None:
            return None
        spans.append(span)
    spans.sort(key=lambda s: (s[0], -s[1]))
    kept: list = []
    for s in spans:  # drop a span inside the one before it (a nested def, a second hit)
        if kept and s[0] >= kept[-1][0] and s[1] <= kept[-1][1]:
            continue
        if kept and s[0] < kept[-1][1]:
            return None  # overlapping but not nested: the guess is off
        kept.append(s)
    pieces = []
    for start, end, col in kept:
        text = _dedent(lines[start:end], col)
        if text is None:
            return None
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return None
        pieces.append(Piece(tree, start, col))
    heads = [(a, b) for a, b in _header_spans(lines, indents) if not any(s <= a < e for s, e, _ in kept)]
    if heads:  # one parse for all of them: the lines between are left blank, so line numbers hold
        blank = [b""] * heads[-1][1]
        for a, b in heads:
            blank[a:b] = lines[a:b]
        try:
            pieces.append(Piece(ast.parse(b"\n".join(blank)), 0, 0, header=True))
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            for a, b in heads:
                try:
                    pieces.append(Piece(ast.parse(b"\n".join(lines[a:b])), a, 0, header=True))
                except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
                    continue  # a header line that is not one on its own: its names are not known
    return pieces


_MARKS = re.compile(b"|".join(ENV_MARKS))


def marked_lines(data: bytes) -> list:
    """(0-based number, start offset) of the lines holding an environment mark, in order."""
    out = []
    line, pos = 0, 0
    for m in _MARKS.finditer(data):
        line += data.count(b"\n", pos, m.start())
        pos = m.start()
        if not out or out[-1][0] != line:
            out.append((line, data.rfind(b"\n", 0, pos) + 1))
    return out


class _Indents:
    """_indent of each line, computed when first asked."""

    __slots__ = ("lines", "known")

    def __init__(self, lines: list):
        self.lines, self.known = lines, {}

    def __getitem__(self, i: int) -> int:
        got = self.known.get(i)
        if got is None:
            got = self.known[i] = _indent(self.lines[i])
        return got


_ALIAS = re.compile(rb"^[ ]*([A-Za-z_]\w*)[ ]*=[ ]*[\w.]*\b(?:environ|getenv)\b[ ]*(?:#.*)?$"
                    rb"|\b(?:environ|getenv)[ ]+as[ ]+([A-Za-z_]\w*)")


def _aliases(marked: list) -> tuple:
    """The names a file gives os.environ or os.getenv (`env = os.environ`, `environ as env`), read
    off the lines that mention them: a line that uses one is a hit as well."""
    names = {a or b for line in marked for a, b in _ALIAS.findall(line)}
    return tuple(re.compile(rb"\b" + re.escape(n) + rb"\b").search for n in names)


def _enclosing(lines: list, indents: list, i: int):
    """(start, end, indentation) of the innermost def around line i, else of the top-level
    statement holding it."""
    cur = indents[i] if indents[i] >= 0 else 1 << 30
    j = i
    top = None
    while j >= 0:
        ind = indents[j]
        if ind >= 0 and (ind < cur or j == i):
            s = lines[j][ind:]
            if ind < cur and s.startswith(_OPENERS):
                return j, _end(lines, indents, j, ind), ind
            if ind == 0 and not s.startswith(_CONTINUERS):
                top = j
                break
            if not s.startswith(_CONTINUERS):
                cur = min(cur, ind)
        j -= 1
    if top is None:
        return None
    return top, _end(lines, indents, top, 0), 0


def _end(lines: list, indents: list, start: int, ind: int) -> int:
    """The line after the statement that starts at start with indentation ind."""
    k = start + 1
    while k < len(lines):
        n = indents[k]
        if 0 <= n <= ind and not lines[k][n:].startswith(_CONTINUERS):
            return k
        k += 1
    return k


def _dedent(chunk: list, col: int):
    if not col:
        return b"\n".join(chunk)
    pad = b" " * col
    out = []
    for line in chunk:
        if line.startswith(pad):
            out.append(line[col:])
        elif not line.strip():
            out.append(b"")
        else:
            return None  # a line left of the def (inside a string): parse the whole file
    return b"\n".join(out)


def _header_spans(lines: list, indents):
    """Top-level imports and `NAME = ...` lines: where a file's names for os and its constants come from."""
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        # a top-level line starts with a letter or `_` (cheap tests first: most lines are indented)
        if line[:1].isalpha() or line[:1] == b"_":
            if line.startswith(_HEADER) or _is_constant(line):
                end = _end(lines, indents, i, 0)
                yield i, end
                i = end
                continue
        i += 1


def _is_constant(line: bytes) -> bool:
    head, eq, rest = line.partition(b"=")
    return bool(eq) and head.strip().decode("latin-1").isidentifier() and not rest.startswith(b"=")


def column(lines: list, line: int, byte_col: int) -> int:
    """1-based code-point column of a 1-based line's byte offset (ast counts UTF-8 bytes)."""
    text = lines[line - 1] if 0 < line <= len(lines) else b""
    return len(text[:byte_col].decode("utf-8", "replace")) + 1
