"""Reusing a model across an editor's edits: which top-level statements no edit touched, moving
their byte offsets in place, and which edits stay inside a comment (they change no syntax)."""

from __future__ import annotations

from .model import Script, Top

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


def reusable(previous: Optional[Script], edits: Optional[list], changed: list) -> Optional[list]:
    """The previous model's top-level items (statements and plain comments) that no edit
    touched and that lie outside the ranges whose syntax changed (`changed`: (start, end) in
    the new text, from Tree.changed_ranges), in order: [(new start, Top, how far it moved)].

    tree-sitter keeps every node outside a changed range as it was, only moved; an edit inside
    a token (a digit typed into a word) changes no syntax, so the edits are checked too."""
    if previous is None or edits is None or not previous.tops:
        return None
    out = []
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
            for a, b in changed:
                if a <= e and s <= b:
                    break
            else:
                out.append((s, top, s - start))
    return out


def move_top(top: Top, delta: int) -> None:
    """Move one top-level item of the last model by delta, in place (the last model is dropped
    once the new one is built: a copy would cost twice as much, and most keystrokes move most
    statements). An offset of 0 stays 0: it means "none" (a moved statement starts after byte 0)."""
    top.end += delta
    groups = top.records
    if groups is None:
        groups = top.records = _grouped(top.stmts)
    for cls, objs in groups.items():
        _SHIFTERS[cls](objs, delta)
    for o in top.occurrences:
        o.start += delta
        o.end += delta
    top.statements = [(a + delta, b + delta) for a, b in top.statements]


def _grouped(stmts: list) -> dict:
    """Every record at or below stmts, by class: moving them is then one loop per class (a walk
    down the records costs a call per record on every move)."""
    groups: dict = {}
    stack = list(stmts)
    while stack:
        o = stack.pop()
        cls = o.__class__
        found = groups.get(cls)
        if found is None:
            groups[cls] = [o]
        else:
            found.append(o)
        for name in _NESTED[cls]:
            v = getattr(o, name)
            if v is None:
                continue
            if v.__class__ is not list:
                stack.append(v)
                continue
            for x in v:
                if x.__class__ is tuple:  # (name, start, end), (cond, body, start), (pattern, body, start)
                    stack.extend(y for y in x if y.__class__ is not int and y.__class__ is not str)
                else:
                    stack.append(x)
    return groups


_POSITIONS = frozenset(("start", "end", "name_start", "name_end", "eq_end", "decl_start", "decl_end",
                        "amp_start", "amp_end", "pipe_start", "pipe_end", "else_start", "op_start"))
_SCALARS = frozenset(("text", "raw", "name", "quote", "op", "mode", "keyword", "kind", "reason", "var", "file",
                      "array_all", "quoted", "effects", "append", "exported", "decl_items", "negate",
                      "allexport", "has_default", "refs", "ends", "readonly", "exports",
                      "option", "against", "indirect", "prefix_names", "local", "attributes",
                      "pattern", "offset", "length", "together"))
_TUPLE_LISTS = frozenset(("names", "clauses", "items"))  # lists that may hold (.., offset) tuples


class _ByClass(dict):
    """record class -> what make(cls) gives, made on first use."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, cls):
        made = self[cls] = self.make(cls)
        return made


def _nested(cls) -> tuple:
    """The fields of a record class that may hold records (a record, a list, a list of tuples)."""
    return tuple(n for n in cls.__record_fields__ if n not in _POSITIONS and n not in _SCALARS)


def _make_shifter(cls):
    """The function that moves the offsets of a list of records of one class, generated once:
    the fields are known, so a record costs one loop step. An offset field without a default
    is always a real offset, after the moved statement's start (never 0: see move_top), so it
    is moved without the test for "none"."""
    lines = []
    for name in cls.__record_fields__:
        if name in _POSITIONS and name not in cls.__record_defaults__:
            lines.append(f"        o.{name} += d")
        elif name in _POSITIONS:
            lines.append(f"        if o.{name}: o.{name} += d")
        elif name in _TUPLE_LISTS:
            lines.append(f"        v = o.{name}\n        if v: shift_tuples(v, d)")
    body = "\n".join(lines) if lines else "        pass"
    env = {"shift_tuples": _shift_tuples}
    exec(f"def shift(objs, d):\n    for o in objs:\n{body}\n", env)  # noqa: S102 - built from field names
    return env["shift"]


def _shift_tuples(value: list, delta: int) -> None:
    """The offsets held in a list's tuples (their records are moved with their class)."""
    for i, x in enumerate(value):
        if x.__class__ is tuple:
            value[i] = tuple((y + delta if y else y) if y.__class__ is int else y for y in x)


_NESTED = _ByClass(_nested)
_SHIFTERS = _ByClass(_make_shifter)


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
