"""After an edit, parse_bytes takes the top-level statements the edit did not touch over from the
last model without visiting their nodes: the edits and Tree.changed_ranges say which ones are
left as they were. These cases pin what the take-over must get right; the fuzz suite
(tests/fuzz/test_model_reuse.py) checks it on random edits."""

from __future__ import annotations

from packgate.core import parse
from packgate.core.parse import parse_bytes

import model_snapshot as snap  # also puts benchmarks/ on sys.path

from generate import generate


def _point(data: bytes, at: int) -> tuple:
    row = data.count(b"\n", 0, at)
    return row, at - (data.rfind(b"\n", 0, at) + 1)


def edited(data: bytes, start: int, end: int, inserted: bytes, last=None):
    """(last model, model after the edit, the new bytes), as an editor's document parses them."""
    last = last if last is not None else parse_bytes(data, keep=True)
    new = data[:start] + inserted + data[end:]
    tree = last.tree
    tree.edit(start, end, start + len(inserted), _point(data, start), _point(data, end),
              _point(new, start + len(inserted)))
    return last, parse_bytes(new, old_tree=tree, previous=last, edits=[(start, end, start + len(inserted))],
                             keep=True), new


def test_a_keystroke_builds_only_the_statement_it_is_in(monkeypatch):
    data = generate(600, 3).encode()
    built = []
    real = parse.build.Builder.top_statement
    monkeypatch.setattr(parse.build.Builder, "top_statement", lambda self, node, t, amp=None:
                        built.append(node.start_byte) or real(self, node, t, amp))
    at = data.index(b"\n", len(data) // 2)  # the end of a line in the middle
    last = parse_bytes(data, keep=True)
    before = {id(s) for top in last.tops.values() for s in top.stmts}
    built.clear()
    _, new, text = edited(data, at, at, b"x", last)
    assert len(built) == 1 and built[0] < at
    assert snap.text_of(new) == snap.text_of(parse_bytes(text))
    assert sum(id(s) not in before for s in new.body.body) == 1  # the others are the last model's


def test_a_line_continuation_joins_the_next_statement_to_the_edited_one():
    # the edit touches only `echo a`; `echo b` after it becomes its arguments (a changed range)
    data = b"echo a\necho b\nexport OFFLINE_PACKED_DATA=1\n"
    _, new, text = edited(data, 6, 6, b" \\")
    assert snap.text_of(new) == snap.text_of(parse_bytes(text))
    assert [type(s).__name__ for s in new.body.body] == ["Command", "Assign", "ExportNames"][:len(new.body.body)]
    assert len(new.body.body[0].words) == 4


def test_a_directive_typed_before_a_kept_statement_covers_it():
    data = b"echo a\n\nexport OFFLINE_PACKED_DATA=1\necho c\n"
    _, new, text = edited(data, 7, 7, b"# packgate disable=PG001")
    fresh = parse_bytes(text)
    assert snap.text_of(new) == snap.text_of(fresh)
    (d,) = new.directives
    assert (d.scope_start, d.scope_end) == (text.index(b"export"), text.index(b"\necho c"))


def test_a_plain_comment_is_taken_over_and_a_directive_is_built_again():
    data = b"# a plain comment\necho a\n# packgate disable=PG004\necho b\n# trailing\n"
    last, new, text = edited(data, 0, 0, b"\n")
    assert snap.text_of(new) == snap.text_of(parse_bytes(text))
    # the directive is built again each time (its scope reaches the next statement), not kept
    assert [t.type for t in last.tops.values()] == ["comment", "command", "command", "comment"]
    assert [t.type for t in new.tops.values()] == ["comment", "command", "command", "comment"]
    assert new.directives[0].scope_start == text.index(b"echo b")


def test_a_command_substitution_left_over_by_a_case_subject_reaches_the_next_statement():
    # `case $(x) in` leaves its substitution to the next statement's `pre` (the model's way):
    # a statement kept from the last parse, where there was none, has to be built again
    data = b"case y in a) ;; esac\necho hi\necho there\n"
    _, new, text = edited(data, 5, 6, b"$(x)")
    fresh = parse_bytes(text)
    assert len(fresh.body.body[1].pre) == 1
    assert snap.text_of(new) == snap.text_of(fresh)


def test_the_offsets_a_move_takes_without_a_test_are_never_none():
    # reuse's shifters move an offset field without a default unconditionally: in a statement a
    # later parse may move (one that starts after byte 0), such a field must never be 0 ("none")
    from packgate.core.parse.reuse import _POSITIONS, _grouped
    checked = 0
    for name, data in snap.inputs().items():
        if "mutation" in name:
            continue
        script = parse_bytes(data, keep=True)
        for start, top in script.tops.items():
            if start == 0:
                continue
            for cls, objs in _grouped(top.stmts).items():
                required = [n for n in cls.__record_fields__ if n in _POSITIONS and n not in cls.__record_defaults__]
                for o in objs:
                    checked += 1
                    assert all(getattr(o, n) > 0 for n in required), (name, o)
    assert checked > 10_000


def _from_scratch(last, data: bytes, start: int, end: int, inserted: bytes):
    """The model built, without taking anything over, out of the same incremental parse an
    editor's document makes (tree-sitter's error recovery depends on the old tree)."""
    new = data[:start] + inserted + data[end:]
    tree = last.tree.copy()
    tree.edit(start, end, start + len(inserted), _point(data, start), _point(data, end),
              _point(new, start + len(inserted)))
    return parse_bytes(new, old_tree=tree)


def test_a_keystroke_that_breaks_the_syntax_takes_the_other_statements_over():
    # `case "${STAGE}" in` -> `inx`: tree-sitter's error stays inside that one statement
    data = generate(2000, 7).encode()
    at = data.index(b'case "${STAGE}" in') + len(b'case "${STAGE}" in')
    last = parse_bytes(data, keep=True)
    reference = _from_scratch(last, data, at, at, b"x")
    before = {id(s) for top in last.tops.values() for s in top.stmts}
    _, broken, text = edited(data, at, at, b"x", last)
    assert broken.has_error and reference.has_error
    assert snap.text_of(broken) == snap.text_of(reference)
    assert sum(id(s) not in before for s in broken.body.body) == 1
    # the keystroke that repairs it takes the statements over from the broken model
    before = {id(s) for top in broken.tops.values() for s in top.stmts}
    _, repaired, text = edited(text, at, at + 1, b"", broken)
    assert not repaired.has_error
    assert snap.text_of(repaired) == snap.text_of(parse_bytes(text))
    assert sum(id(s) not in before for s in repaired.body.body) == 1


def test_a_zero_width_error_node_in_blanks_is_built_as_a_fresh_parse_builds_it():
    # a line continuation at the very end leaves tree-sitter a zero-width ERROR after the last
    # statement, in what is only blanks: a take-over that skips blanks would lose it
    data = b"OFFLINE_PACKED_DATA=1\n\ndocker run --rm \\\n    -e X \\\n    img\n"
    last = parse_bytes(data, keep=True)
    at = len(data)
    reference = _from_scratch(last, data, at - 5, at, b"")
    _, new, _ = edited(data, at - 5, at, b"", last)
    assert snap.text_of(new) == snap.text_of(reference)


def test_a_statement_the_error_recovery_moved_inside_an_error_node_is_built_again():
    from types import SimpleNamespace as Node
    from packgate.core.parse.build import _broken_parts
    from packgate.core.parse.model import Top
    a, b = Top(10, "command", [], [], []), Top(30, "command", [], [], [])
    # b's bytes are now inside an ERROR child of the root: only a is taken over
    children = [Node(start_byte=0, end_byte=10, type="command"), Node(start_byte=11, end_byte=40, type="ERROR")]
    taken, pieces, tail = _broken_parts(children, [(0, a, 0), (20, b, 0)])
    assert taken == [(0, a, 0)] and pieces[0] == ([], children[:1]) and tail == children[1:]
    # a kept statement now followed by `&` runs in the background: built again
    children = [Node(start_byte=0, end_byte=10, type="command"), Node(start_byte=10, end_byte=11, type="&")]
    taken, pieces, tail = _broken_parts(children, [(0, a, 0)])
    assert taken == [] and pieces == {} and tail == children
