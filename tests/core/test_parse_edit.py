"""core/parse/edit.py, the incremental-parse API the server calls: a change applied to the kept
tree, the re-parse from it, and the statements the change did not touch taken over. Each case
compares the result with a fresh parse of the final text: the same model (model_snapshot's
text, as its digests are made) and the same tree, node for node, bytes and tree-sitter points
(rows at \\n only, byte columns: what apply_edits computes for Tree.edit)."""

from __future__ import annotations

import hashlib

import pytest

from packgate.core.parse import parse_bytes
from packgate.core.parse.edit import ParseState, TextEdit, apply_edits, in_comment, kept, reparse

import model_snapshot as snap  # also puts benchmarks/ on sys.path

from generate import generate


def digest(script) -> str:
    return hashlib.sha256(snap.text_of(script).encode("utf-8", "surrogatepass")).hexdigest()


def nodes(tree) -> list:
    """Every node of a tree: type, bytes, points, in document order."""
    out, stack = [], [tree.root_node]
    while stack:
        n = stack.pop()
        out.append((n.type, n.start_byte, n.end_byte, tuple(n.start_point), tuple(n.end_point), n.is_missing))
        stack.extend(reversed(n.children))
    return out


def applied(data: bytes, edits) -> bytes:
    for e in edits:
        data = data[:e.start] + e.inserted + data[e.end:]
    return data


def final_range(edits, i: int) -> tuple[int, int]:
    """Where edit i's inserted bytes lie in the text all the edits leave."""
    a, b = edits[i].start, edits[i].start + len(edits[i].inserted)
    for e in edits[i + 1:]:
        delta = len(e.inserted) - (e.end - e.start)
        a = a + delta if a >= e.end else min(a, e.start)
        b = b + delta if b >= e.end else max(b, e.start + len(e.inserted)) if b > e.start else b
    return a, b


def first(text: str) -> tuple[bytes, ParseState]:
    data = text.encode("utf-8", "surrogatepass")
    script = reparse(data)
    return data, kept(script, len(data))


def change(data: bytes, state: ParseState, edits) -> tuple[bytes, ParseState, object]:
    """One change through the API, as the server makes it: (new bytes, the state the analysis
    leaves, the model the re-parse gave)."""
    state = apply_edits(state, data, edits)
    assert state is not None
    new = applied(data, edits)
    assert state.size == len(new)
    # the top-level statements no edit touched, as Tree.edit moved them (before the re-parse
    # reads the text again): their points say whether the edits' points were right
    ranges = [final_range(edits, i) for i in range(len(edits))]
    moved = {(n.type, n.start_byte): (tuple(n.start_point), tuple(n.end_point))
             for n in state.tree.root_node.children
             if all(n.end_byte < a or n.start_byte > b for a, b in ranges)}
    script = reparse(new, state)
    tree = script.tree
    return new, kept(script, len(new)), (script, tree, moved)


def assert_fresh(new: bytes, made, moved_after: bool = True) -> None:
    script, tree, moved = made
    fresh = parse_bytes(new)
    assert not fresh.has_error, new
    assert digest(script) == digest(fresh), new
    assert nodes(tree) == nodes(fresh.tree), new
    after = {(n.type, n.start_byte): (tuple(n.start_point), tuple(n.end_point))
             for n in fresh.tree.root_node.children if (n.type, n.start_byte) in moved}
    assert (after or not moved_after) and after == {k: v for k, v in moved.items() if k in after}, new


def at(data: bytes, marker: str, after: bool = False) -> int:
    i = data.index(marker.encode())
    return i + len(marker.encode()) if after else i


SCRIPT = ("#!/bin/bash\n# 训练脚本 😀\nexport OFFLINE_PACKING_BMR=1\nMBS=${4:-1}\n"
          "ARGS=(\n\t--micro-batch-size \"${MBS}\"\n\t--data-path \"/数据/😀/part\"\n)\n"
          "f() { export OFFLINE_PACKED_DATA=1; }\nA=甲; B=乙 C=😀\nf\ntorchrun aiak_training_llm/train.py \"${ARGS[@]}\"\n")


@pytest.mark.parametrize("name,text,marker,after,cut,typed", [
    ("ascii", SCRIPT, "MBS=", True, 0, "2"),
    ("ascii line", SCRIPT, "f\n", False, 0, "unset OFFLINE_PACKING_BMR\n"),
    ("chinese", SCRIPT, "/数据", True, 0, "集"),
    ("chinese before a statement on its line", SCRIPT, "\nA=", True, 0, "甲乙"),
    ("emoji before a statement on its line", SCRIPT, "\nA=", True, len("甲".encode()), "😀"),
    ("chinese replaced", SCRIPT, "训练", False, len("训练".encode()), "推理"),
    ("emoji", SCRIPT, "/😀", True, 0, "🚀x"),
    ("emoji deleted", SCRIPT, "😀/", False, len("😀".encode()), ""),
    ("crlf", SCRIPT.replace("\n", "\r\n"), "MBS=", True, 0, "2"),
    ("crlf line", SCRIPT.replace("\n", "\r\n"), "f\r\n", False, 0, "echo 中文 😀\r\n"),
    ("crlf before a statement on its line", SCRIPT.replace("\n", "\r\n"), "\nA=", True, 0, "中文"),
    ("lone cr", SCRIPT.replace("MBS=${4:-1}\n", "MBS=${4:-1}\r"), "f()", False, 0, "X=1\n"),
])
def test_one_edit_gives_a_fresh_parse(name, text, marker, after, cut, typed):
    data, state = first(text)
    start = at(data, marker, after)
    new, _, made = change(data, state, [TextEdit(start, start + cut, typed.encode())])
    assert new.decode("utf-8") == text[:len(data[:start].decode())] + typed + data[start + cut:].decode()
    assert_fresh(new, made)


def test_several_edits_in_one_change_give_a_fresh_parse():
    for eol in ("\n", "\r\n"):
        data, state = first(SCRIPT.replace("\n", eol))
        # each on the text the one before it left: typing in the function near the end, a line
        # added at the top, a Chinese word replaced in between (its offsets after the new line)
        e1 = TextEdit(at(data, "PACKED_DATA=1", True), at(data, "PACKED_DATA=1", True), "; echo 😀".encode())
        line = f"export OFFLINE_PACKED_DATA=0{eol}".encode()
        top = at(data, "export")
        e2 = TextEdit(top, top, line)
        mid = at(applied(data, [e1, e2]), "数据")
        e3 = TextEdit(mid, mid + len("数据".encode()), "资料😀".encode())
        new, _, made = change(data, state, [e1, e2, e3])
        assert "资料😀" in new.decode() and new.decode().count("export OFFLINE_PACKED_DATA=0") == 1
        assert_fresh(new, made)


def test_an_edit_that_breaks_the_syntax_and_one_that_repairs_it():
    data, state = first(SCRIPT)
    quote = at(data, "\"${MBS}\"")
    # a lone quote opens a string that runs on: the tree has an error
    new, state, (script, _, _) = change(data, state, [TextEdit(quote, quote, b"\"")])
    assert script.has_error
    # ... and deleting it again gives the fresh parse of the repaired text
    repaired, state, made = change(new, state, [TextEdit(quote, quote + 1, b"")])
    assert repaired == data
    assert_fresh(repaired, made, moved_after=False)  # the broken tree had no statement after the quote


def test_a_broken_parse_takes_over_what_the_same_tree_builds_from_scratch():
    data, state = first(SCRIPT)
    brace = at(data, "f() {", True)
    edit = TextEdit(brace - 1, brace, b"")  # `f() ` without its `{`: an error up to the `}`
    copy = state.tree.copy()
    new = applied(data, [edit])
    _, _, (script, _, _) = change(data, state, [edit])
    assert script.has_error
    from packgate.core.text import tree_point
    copy.edit(edit.start, edit.end, edit.start, tree_point(data, edit.start), tree_point(data, edit.end),
              tree_point(data, edit.start))
    assert digest(script) == digest(parse_bytes(new, old_tree=copy))


def test_a_long_launcher_takes_untouched_statements_over():
    data, state = first(generate(600, 3))
    before = {id(s) for top in state.script.tops.values() for s in top.stmts}
    line = data.index(b"\n", len(data) // 2) + 1  # a line start in the middle
    new, _, made = change(data, state, [TextEdit(line, line, "# 注释 😀\nMBS=8\n".encode())])
    assert_fresh(new, made)
    after = [id(s) for top in made[0].tops.values() for s in top.stmts]
    assert sum(i in before for i in after) > len(after) * 3 // 4  # most taken over, not built again


def test_typed_and_deleted_again_leaves_no_edit_to_check():
    data, state = first(SCRIPT)
    c = at(data, "# 训练", True)
    state = apply_edits(state, data, [TextEdit(c, c, b"x")])
    assert state.edits == [(c, c, c + 1)]
    state = apply_edits(state, applied(data, [TextEdit(c, c, b"x")]), [TextEdit(c, c + 1, b"")])
    assert state.edits == [] and state.size == len(data)


def test_a_state_of_another_text_is_not_used():
    data, state = first(SCRIPT)
    assert apply_edits(state, data + b"x", [TextEdit(0, 0, b"#")]) is None
    assert apply_edits(None, data, [TextEdit(0, 0, b"#")]) is None
    assert not in_comment(state, data + b"x", TextEdit(15, 15, b"x"))
    assert digest(reparse(data + b"\n", state)) == digest(parse_bytes(data + b"\n"))


def test_in_comment():
    data, state = first(SCRIPT)
    c = at(data, "训练", True)
    assert in_comment(state, data, TextEdit(c, c, "字".encode()))
    assert not in_comment(state, data, TextEdit(c, c, b"\n"))  # a line break ends the comment
    assert not in_comment(state, data, TextEdit(at(data, "MBS="), at(data, "MBS="), b"x"))
    assert not in_comment(state, data, TextEdit(c, c, b" packgate disable=PG001"))
