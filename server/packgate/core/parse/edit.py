"""The incremental-parse API an editor's document goes through: each change applied to the kept
parse tree (Tree.edit, with the points tree-sitter counts), the next parse made from that tree
taking the statements no edit touched over (reuse.py), and the state the next change starts from.

Callers speak byte offsets into the UTF-8 text only (core/text.py turns an editor's positions
into them); nothing here knows LSP, and nothing outside core/parse edits a tree.
"""

from __future__ import annotations

from ..records import factory, record
from ..text import tree_point
from .build import parse_bytes
from .model import Script
from .reuse import comment_interior

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional, Sequence


@record(eq=True)
class TextEdit:
    """Bytes [start, end) of a text replaced by inserted (UTF-8)."""

    start: int
    end: int
    inserted: bytes = b""


@record
class ParseState:
    """What a document's last parse leaves for its next one, edited in step with every change since."""

    tree: object  # the parse tree (tree_sitter.Tree), moved by every edit since the parse
    size: int  # the byte length of the text the edited tree now describes
    script: Optional[Script] = None  # the model the parse gave: its untouched top-level statements are taken over
    edits: list = factory(list)  # (start, old end, new end) since the parse, as parse_bytes takes them
    resume: object = None  # the flow walk's checkpoints made on that model (kept and dropped with it; parsing ignores it)


def reparse(data: bytes, state: Optional[ParseState] = None) -> Script:
    """The model of data, kept for the next change (parse_bytes keep=True); with the state of
    the last parse, edited up to data, tree-sitter re-reads only around the edits and the
    top-level statements they did not touch are taken over, moved. A state that describes
    another text (its size is not data's) is not used."""
    if state is None or state.tree is None or state.size != len(data):
        return parse_bytes(data, keep=True)
    return parse_bytes(data, old_tree=state.tree, previous=state.script, edits=state.edits, keep=True)


def kept(script: Optional[Script], size: int, resume: object = None) -> Optional[ParseState]:
    """The state a finished analysis of a size-byte text leaves for the document's next change:
    the model's tree taken out of it (one tree is kept per document, not one per version).
    None without a tree (a refused document)."""
    tree = getattr(script, "tree", None)
    if tree is None:
        return None
    script.tree = None
    return ParseState(tree, size, script, [], resume)


def apply_edits(state: Optional[ParseState], data: bytes, edits: Sequence[TextEdit]) -> Optional[ParseState]:
    """state carried over edits of data (each on the text the one before it left): its tree
    edited in place (tree-sitter moves every node after an edit and marks the ones around it
    for the next parse to read again) and the edits recorded for the take-over. None when
    there is no state or it describes another text (then the next parse starts afresh)."""
    if state is None or state.tree is None or state.size != len(data):
        return None
    tree, done = state.tree, state.edits
    last = len(edits) - 1
    for i, e in enumerate(edits):
        start, end, inserted = e.start, e.end, e.inserted
        start_point, old_end_point = tree_point(data, start), tree_point(data, end)
        rows = inserted.count(b"\n")
        column = len(inserted) - inserted.rfind(b"\n") - 1 if rows else start_point[1] + len(inserted)
        tree.edit(start, end, start + len(inserted), start_point, old_end_point, (start_point[0] + rows, column))
        if not inserted and done and done[-1] == (start, start, end):
            # the bytes the last edit typed, deleted again (an `x` and its backspace while the
            # typing was in a comment): the text between is as the parse left it, so the
            # statement there is still the parse's to take over
            done.pop()
        else:
            done.append((start, end, start + len(inserted)))
        if i < last:  # the next edit's points are on the text this one leaves
            data = data[:start] + inserted + data[end:]
        state.size += len(inserted) - (end - start)
    return state


def in_comment(state: Optional[ParseState], data: bytes, edit: TextEdit) -> bool:
    """Whether edit of data, which state describes, stays inside the text of an ordinary
    comment (reuse.comment_interior): it changes no syntax and no finding, only moves them.
    Never while the last parse read the text in pieces: its tree is the one before the break,
    which may see a comment where the text now has a string."""
    if state is None or state.tree is None or state.size != len(data):
        return False
    if state.script is not None and state.script.cuts is not None:
        return False
    return comment_interior(state.tree, data, edit.start, edit.end, edit.inserted)
