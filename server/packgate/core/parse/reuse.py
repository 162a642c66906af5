"""Reusing a model across an editor's edits: which top-level statements no edit touched, moving
their byte offsets in place, and which edits stay inside a comment (they change no syntax)."""

from __future__ import annotations

from typing import Optional

from .model import Script


def reusable(previous: Optional[Script], edits: Optional[list]) -> Optional[dict]:
    """The previous model's top-level statements that no edit touched, by where they start
    now: new start -> (Top, how far it moved)."""
    if previous is None or edits is None or not previous.tops or previous.has_error:
        return None
    out = {}
    for start, top in previous.tops.items():
        s, e = start, top.end
        for a, old_end, new_end in edits:
            if e < a:  # before the edit (not touching it)
                continue
            if s > old_end:  # after it: moved
                s += new_end - old_end
                e += new_end - old_end
                continue
            break  # touched
        else:
            out[s] = (top, s - start)
    return out


_POSITIONS = frozenset(("start", "end", "name_start", "name_end", "eq_end", "decl_start", "decl_end",
                        "amp_start", "amp_end", "pipe_start", "pipe_end", "else_start", "op_start"))


class _Movers(dict):
    """record class -> its moving function, generated on first use."""

    def __missing__(self, cls):
        mover = self[cls] = _make_mover(cls)
        return mover


_MOVERS = _Movers()
_SCALARS = frozenset(("text", "raw", "name", "quote", "op", "mode", "keyword", "kind", "reason", "var", "file",
                      "array_all", "quoted", "effects", "append", "exported", "decl_items", "negate",
                      "allexport", "has_default", "refs", "ends", "readonly", "exports",
                      "option", "against"))
_TUPLE_LISTS = frozenset(("names", "clauses", "items"))  # lists that may hold (.., offset) tuples


def move(obj, delta: int) -> None:
    """Move a model record's byte offsets (and those of everything below it) by delta, in
    place. An offset of 0 stays 0: it means "none" (a moved statement starts after byte 0)."""
    _MOVERS[obj.__class__](obj, delta)


def _move_list(value: list, delta: int) -> None:
    for i, x in enumerate(value):
        if x.__class__ is tuple:  # (name, start, end), (cond, body, start), (pattern, body, start)
            value[i] = tuple((y + delta if y else y) if y.__class__ is int
                             else (y if y.__class__ is str else _moved_in(y, delta)) for y in x)
        else:
            _MOVERS[x.__class__](x, delta)


def _moved_in(value, delta: int):
    _MOVERS[value.__class__](value, delta)
    return value


def _make_mover(cls):
    """The moving function for one record class, generated once: the fields are known, so the
    walk below it costs one call per record (a generic walk costs several)."""
    lines = []
    for name in cls.__record_fields__:
        if name in _POSITIONS:
            lines.append(f"    if o.{name}: o.{name} += d")
        elif name in _SCALARS:
            continue
        elif name in _TUPLE_LISTS:
            lines.append(f"    v = o.{name}\n    if v: ml(v, d)")
        else:  # a record, or a list of records
            lines.append(f"    v = o.{name}\n    if v is not None:\n        if v.__class__ is list:\n"
                         f"            for x in v: M[x.__class__](x, d)\n        else: M[v.__class__](v, d)")
    env = {"M": _MOVERS, "ml": _move_list}
    exec("def move(o, d):\n" + ("\n".join(lines) or "    pass") + "\n", env)
    return env["move"]


def comment_interior(tree, data: bytes, start: int, end: int, inserted: bytes = b"") -> bool:
    """Whether replacing the byte range [start, end) of data with inserted (no line break)
    stays inside the text of one ordinary comment (after its `#`), so that it changes no syntax
    and no finding: not on the first line (a `#!` there moves the file-wide disable fix), not a
    `# packgate ...` directive before or after.

    tree describes data (edited with Tree.edit since its last parse is fine: tree-sitter moves
    the nodes with each edit); what it reports is checked against the bytes.
    """
    if tree is None or start > end or end > len(data):
        return False
    root = tree.root_node
    node = root.descendant_for_byte_range(start - 1, start) if start == end and start > 0 \
        else root.descendant_for_byte_range(start, end)
    if node is None or node.type != "comment":
        return False
    s, e = node.start_byte, node.end_byte
    if e > len(data):
        return False
    if data[e - 1:e] == b"\r":
        e -= 1  # tree-sitter-bash ends a comment after the \r of a CRLF
    if not (s < start and end <= e):
        return False
    text = data[s:e]
    if not text.startswith(b"#") or text.startswith(b"#!") or b"\n" in text or b"\r" in text:
        return False
    if e < len(data) and data[e] not in b"\r\n":
        return False  # a comment runs to the end of its line
    if s > 0 and data[s - 1] not in b" \t\r\n;&|(){}":
        return False  # `a#b` is a word, not a comment
    if s == 0 or b"\n" in inserted or b"\r" in inserted or b"\0" in inserted:
        return False
    after = data[s:start] + inserted + data[end:e]
    return b"packgate" not in text.lower() and b"packgate" not in after.lower()
