"""Keeping a syntax error where it was typed: when an edit breaks a statement (a letter after
`then`, a `fi` half deleted, a quote opened), tree-sitter's error recovery folds the untouched
statements around it into one broken node, up to the end of the file. An editor's next parse
then reads the text in pieces instead: the items no edit touched stay as they were, and each
stretch between them is parsed on its own, so the break stays in the statement being typed.

Bash itself runs the statements before the break and stops at it; a broken parse is a guess
either way, and this one keeps what the user did not touch as they wrote it. `packgate check`
(no last parse) reads the whole text as tree-sitter recovers it.
"""

from __future__ import annotations

from bisect import bisect_left

from ..text import tree_point
from .grammar import new_parser, tree_sitter

_PIECES = new_parser()  # its own parser: included_ranges would otherwise stay on the shared one


def edited_ranges(edits: list) -> list:
    """The ranges the edits wrote, as (start, end) in the text the last edit left (each edit is
    (start, old end, new end) on the text the one before it left)."""
    out: list = []
    for a, old_end, new_end in edits:
        d = new_end - old_end
        moved = []
        for s, e in out:
            if s >= old_end:
                s += d
            elif s > a:
                s = a
            if e >= old_end:
                e += d
            elif e > a:
                e = new_end
            moved.append((s, e))
        out = moved
        out.append((a, new_end))
    return out


def folded(root, untouched: list, edits: list) -> bool:
    """Whether a node of the new tree with an error, at the top level and overlapping an edit,
    holds an item no edit touched that is not a node of its own there any more (untouched:
    [(new start, Top, delta)] in order, as parse.reuse.reusable gives them)."""
    if not untouched or not edits:
        return False
    starts = [start for start, _, _ in untouched]
    written = edited_ranges(edits)
    for node in root.children:
        if not node.has_error:
            continue
        s, e = node.start_byte, node.end_byte
        if not any(a <= e and s <= b for a, b in written):
            continue
        i = bisect_left(starts, s)
        while i < len(untouched) and starts[i] < e:
            start, top, delta = untouched[i]
            if top.end + delta <= e and not (start == s and top.end + delta == e):
                return True
            i += 1
    return False


def piece(data: bytes, start: int, end: int) -> list:
    """The top-level nodes of data[start:end] parsed on its own, with offsets into data."""
    _PIECES.included_ranges = [tree_sitter.Range(tree_point(data, start), tree_point(data, end), start, end)]
    try:
        return _PIECES.parse(data).root_node.children
    finally:
        _PIECES.included_ranges = []
