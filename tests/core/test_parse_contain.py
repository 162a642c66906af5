"""core/parse/contain.py: an edit that breaks a statement so that tree-sitter folds the untouched
statements into it is read in pieces: the untouched items taken over, the stretch around the
edit parsed on its own. Each case checks the model against the same pieces read from scratch
(parse_bytes(cuts=...)), that what the edit did not touch was taken over, and that the text
is read whole again once it parses."""

from __future__ import annotations

import hashlib

import pytest

from packgate.core.engine import Previous, analyze
from packgate.core.parse import parse_bytes
from packgate.core.parse.contain import edited_ranges, folded
from packgate.core.parse.edit import TextEdit, apply_edits, in_comment, kept, reparse
from packgate.core.text import Source
from packgate.lsp.session import Session

import model_snapshot as snap  # also puts benchmarks/ on sys.path

from generate import generate

LAUNCHER = generate(600, 5, blocks=True).encode()


def digest(script) -> str:
    return hashlib.sha256(snap.text_of(script).encode("utf-8", "surrogatepass")).hexdigest()


def line_end(data: bytes, word: bytes, nth: int = 1) -> int:
    """The end of the nth line (from 0) whose code ends in word."""
    ends, at = [], 0
    for line in data.split(b"\n"):
        if line.rstrip(b"\r").rstrip().endswith(word):
            ends.append(at + len(line.rstrip(b"\r").rstrip()))
        at += len(line) + 1
    return ends[nth]


def typed(data: bytes, offset: int, inserted: bytes = b"x", cut: int = 0):
    """(the state after the first parse, the new bytes, the model of the edit's re-parse)."""
    state = kept(reparse(data), len(data))
    edit = TextEdit(offset, offset + cut, inserted)
    state = apply_edits(state, data, [edit])
    new = data[:offset] + inserted + data[offset + cut:]
    return state, new, reparse(new, state)


def folding(word: bytes) -> int:
    """The end of the first line ending in word where an `x` typed makes tree-sitter fold the
    rest of the file into the broken statement."""
    for n in range(50):
        offset = line_end(LAUNCHER, word, n)
        root = parse_bytes(LAUNCHER[:offset] + b"x" + LAUNCHER[offset:]).tree.root_node
        if any(c.has_error and c.start_byte <= offset and c.end_byte > offset + 2000 for c in root.children):
            return offset
    raise AssertionError(word)


@pytest.mark.parametrize("word", [b"then", b"do", b"fi", b"done", b"esac", b";;"])
def test_a_broken_compound_is_read_alone(word):
    before = kept(reparse(LAUNCHER), len(LAUNCHER))
    old = {id(s) for top in before.script.tops.values() for s in top.stmts}
    offset = folding(word)
    state = apply_edits(before, LAUNCHER, [TextEdit(offset, offset, b"x")])
    new = LAUNCHER[:offset] + b"x" + LAUNCHER[offset:]
    script = reparse(new, state)
    assert script.has_error and script.cuts is not None
    # tree-sitter alone folds everything after the break into it: the pieces do not
    assert digest(parse_bytes(new)) != digest(script)
    assert digest(script) == digest(parse_bytes(new, cuts=script.cuts))
    taken = [id(s) for top in script.tops.values() for s in top.stmts]
    assert sum(i in old for i in taken) > len(taken) * 9 // 10
    after = [s for s in script.body.body if s.start > offset + 200]
    assert after and all(s.start >= offset for s in after)  # top-level statements, not one broken block


def test_the_repaired_text_is_read_whole_again():
    offset = line_end(LAUNCHER, b"then")
    state, new, script = typed(LAUNCHER, offset)
    assert script.cuts is not None
    state = kept(script, len(new))
    state = apply_edits(state, new, [TextEdit(offset, offset + 1, b"")])
    repaired = reparse(LAUNCHER, state)
    assert repaired.cuts is None and not repaired.has_error
    assert digest(repaired) == digest(parse_bytes(LAUNCHER))
    # and the tree kept for the parse after it is that parse's own
    assert kept(repaired, len(LAUNCHER)).tree is not None


def test_typing_on_in_the_broken_statement_stays_contained():
    offset = line_end(LAUNCHER, b"do")
    state, new, script = typed(LAUNCHER, offset)
    at = offset + 1
    for piece in ("y", "z", " ", "😀"):
        b = piece.encode()
        state = apply_edits(kept(script, len(new)), new, [TextEdit(at, at, b)])
        new = new[:at] + b + new[at:]
        at += len(b)
        script = reparse(new, state)
        assert script.cuts is not None
        assert digest(script) == digest(parse_bytes(new, cuts=script.cuts))


def test_a_quote_opened_in_a_crlf_file_with_chinese_and_emoji():
    data = LAUNCHER.replace(b"\n", b"\r\n")
    data = data.replace(b"set -euo pipefail", "set -euo pipefail  # 训练 😀\t".encode(), 1)
    offset = data.index(b"\r\n", len(data) // 3)
    state, new, script = typed(data, offset, b' "')
    assert script.has_error and script.cuts is not None
    assert digest(script) == digest(parse_bytes(new, cuts=script.cuts))


def test_a_break_that_folds_nothing_is_read_whole():
    """`;;x` in a case at the top level breaks that case alone (it still ends at its `esac`):
    the text is read whole, as the same tree gives it from scratch."""
    offset = line_end(LAUNCHER, b";;", 1)
    state, new, script = typed(LAUNCHER, offset)
    assert script.has_error and script.cuts is None
    assert digest(script) == digest(parse_bytes(new, old_tree=script.tree))


def test_a_line_joined_to_the_next_is_not_read_apart():
    """A `\\` at a line's end joins the next line to it: bash reads one command, so no piece
    keeps them apart, even while an error elsewhere marks the tree."""
    broken_tail = LAUNCHER + b"\nif true; then\n"  # an error of its own at the end
    offset = line_end(broken_tail, b"fi", 3)
    offset = broken_tail.index(b"\n", offset + 1)  # the end of the line after that `fi`
    state, new, script = typed(broken_tail, offset, b" \\")
    assert script.has_error and script.cuts is None


def test_no_last_parse_reads_the_text_whole():
    offset = line_end(LAUNCHER, b"then")
    new = LAUNCHER[:offset] + b"x" + LAUNCHER[offset:]
    assert parse_bytes(new).cuts is None
    assert reparse(new).cuts is None  # `packgate check` and a document's first version


def test_no_comment_shortcut_while_read_in_pieces():
    """The kept tree is the one before the break, which can see a comment where the text now
    holds a string: every edit is analysed until the text parses again."""
    offset = line_end(LAUNCHER, b"then")
    state, new, script = typed(LAUNCHER, offset)
    state = kept(script, len(new))
    comment = new.index(b"# ", offset) + 2
    assert not in_comment(state, new, TextEdit(comment, comment, b"x"))


def test_the_editor_reports_what_the_pieces_give():
    text = LAUNCHER.decode()
    session, uri = Session(), "untitled:contain"
    first, _ = session.analysis(uri, 0, text)
    offset = line_end(LAUNCHER, b"esac")
    edited = session.splice(uri, Source(text), offset, offset, "x")
    entry, _ = session.analysis(uri, 1, edited)
    cuts = entry.analysis.script.cuts
    assert cuts is not None
    ref = analyze(edited, previous=Previous(cuts=cuts))
    assert [(f.code, f.start, f.message) for f in entry.analysis.findings] == \
        [(f.code, f.start, f.message) for f in ref.findings]
    # the launches after the break are still seen, moved by the typed letter
    after = [s.start for s in first.analysis.launch_summaries if s.start > offset]
    assert after and [s.start for s in entry.analysis.launch_summaries if s.start > offset] == [a + 1 for a in after]


def test_edited_ranges_follow_later_edits():
    # `ab` typed at 10, then 3 bytes deleted before it, then one typed inside it
    assert edited_ranges([(10, 10, 12), (2, 5, 2), (8, 8, 9)]) == [(7, 10), (2, 2), (8, 9)]
    assert edited_ranges([]) == []


def test_nothing_is_folded_without_an_untouched_item_inside_a_broken_node():
    tree = parse_bytes(b"echo a\nif true; thenx\n").tree
    assert not folded(tree.root_node, [], [(20, 20, 21)])
