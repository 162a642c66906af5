"""Edits as data: small builders that keep the script's own style (quotes, indentation, EOL)."""

from __future__ import annotations

import re

from .findings import Edit
from .text import Source

# Patterns as text: compiled on first use (re keeps them), since most runs make no fix.
_CODE_AFTER = rb"^[ \t]*(#.*)?$"


def quote_like(quote: str, value: str) -> str:
    """value quoted the way a neighbouring word was ('1', "1" or 1)."""
    return f"{quote}{value}{quote}" if quote in ("'", '"') else value


def insert_statement_after(source: Source, end: int, text: str, *, before: int | None = None) -> Edit:
    """Insert a statement right after the statement ending at `end`.

    When nothing but a comment follows on that line, the new statement goes on its own line with
    the same indentation; otherwise it is joined with `; ` so it still runs before what follows.
    """
    line = source.line_of(end)
    line_end = source.line_end(line)
    rest = source.data[end:line_end]
    if re.match(_CODE_AFTER, rest):
        indent = source.indentation(before if before is not None else end)
        return Edit(line_end, line_end, source.eol + indent + text)
    # `stmt; next` or `stmt & next`: keep the separator after the inserted statement
    return Edit(end, end, "; " + text)


# what opens a body (then, do, else, {, a subshell's or a case arm's parenthesis, $( <( >( and a
# backquote) and what closes one
_OPENERS = rb"(?:(?:^|[\s;&|])(?:then|do|else|\{|\(|\))|\$\(|[<>]\(|`)\s*$"
_CLOSERS = rb"^\s*(?:;\s*)?(?:fi|done|esac|elif|else|\}|\)|;;|;&|`)(?:[\s;&|)`]|$)"


# An operator that ties the statement to a neighbour: `a && STMT`, `a || STMT`, `a | STMT`,
# `! STMT` before it (the operators may end a previous line); `STMT && b`, `STMT || b`,
# `STMT | b`, `STMT &` after it. Deleting the statement would hand the operator to the next
# command, or move that command out of its list.
_JOINED_BEFORE = rb"(?:(?:&&|\|\||\|&?)(?:[ \t]|\\?\r?\n)*|(?:^|[\s;&|({])![ \t]+)$"
_JOINED_AFTER = rb"^[ \t]*(?:&&|\|\||\|&?|&)"


def remove_statement(source: Source, start: int, end: int) -> Edit:
    """Delete a statement; its whole line (with line ending) when it stands alone there.

    When it is the only command of a body (`then ... fi`, `do ... done`, `{ ... }`, a case arm,
    `$( ... )`),
    or an operand of `&&`, `||`, `|`, `!` or `&`, it becomes
    `:` instead: bash rejects an empty body, and a dangling operator would join the next command.
    """
    data = source.data
    if re.search(_OPENERS, data[max(0, start - 64):start]) and re.match(_CLOSERS, data[end:end + 64]):
        return Edit(start, end, ":")
    if re.search(_JOINED_BEFORE, data[max(0, start - 64):start]) or re.match(_JOINED_AFTER, data[end:end + 8]):
        return Edit(start, end, ":")
    line = source.line_of(start)
    lstart = source.line_starts[line]
    end_line = source.line_of(end)
    lend = source.line_end(end_line)
    before = source.data[lstart:start]
    after = source.data[end:lend]
    if before.strip(b" \t") == b"" and re.match(_CODE_AFTER, after) and not after.strip(b" \t").startswith(b"#"):
        return Edit(lstart, source.line_end(end_line, with_eol=True), "")
    # remove the statement and one following separator
    m = re.match(rb"[ \t]*(;(?![;&]))?[ \t]*", after)
    extra = m.end() if m else 0
    return Edit(start, end + extra, "")


def remove_word(source: Source, start: int, end: int) -> Edit:
    """Delete one word and the blanks after it (or before it at a line end)."""
    data = source.data
    stop = end
    while stop < len(data) and data[stop] in b" \t":
        stop += 1
    if stop < len(data) and data[stop:stop + 2] in (b"\\\n", b"\\\r"):
        # a continuation follows: drop the blanks before the word instead
        begin = start
        while begin > 0 and data[begin - 1] in b" \t":
            begin -= 1
        return Edit(begin, end, "")
    return Edit(start, stop, "")
