"""What the parts of one walk share besides the recorder: the walk's input, fixed for the walk,
and where the walk is (the file, the function calls, loops and child shells it is inside)."""

from __future__ import annotations

from ..records import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


@record
class Input:
    """One walk's input: the script, its bytes and path, and what the walk follows."""

    script: object  # parse.model.Script
    data: bytes
    path: Optional[str]  # absolute; None: the text has no file
    loader: object  # reads sourced files; None: `source` is not followed
    relevant: Optional[frozenset]  # the variables the checks read (None: every one)
    record: bool  # leave checkpoints for an editor's next walk
    wide: bool  # every word a launch is given is followed (`packgate launches`)
    errexit_at_start: bool  # the shebang line says `-e`


class Where:
    """Where the walk is now."""

    __slots__ = ("file_stack", "sourced", "via", "call_depth", "calling", "call_steps", "child_depth",
                 "loop_depth", "no_errexit")

    def __init__(self, path: Optional[str]) -> None:
        self.file_stack: list = [path]  # the file being walked (None: the main text has no path)
        self.sourced = False  # walking a sourced file (len(file_stack) > 1, read on every value)
        self.via: Optional[tuple] = None  # the main file's `source` command while walking a sourced file
        self.call_depth = 0
        self.calling: list = []  # the functions being walked, outermost first
        self.call_steps = 0  # statements walked inside the calls of the current top-level statement
        self.child_depth = 0
        self.loop_depth = 0  # for loops being walked pass by pass (walk.for_items)
        self.no_errexit = 0  # > 0 where bash suspends `set -e` (conditions, lists, after `!`)
