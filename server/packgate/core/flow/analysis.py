"""One flow analysis: the Flow that joins the parts of a walk and runs it. Each part is an object
of its own with one job, given the few others it calls: walk.py walks (the Walker owns the
paths), apply.py applies what commands do (the effects commands.py's table returns), values.py
evaluates words, launches.py, sourcing.py and children.py handle launches, `source` and child
shells, declare.py applies declarations and assignments, loops.py walks loops, relevance.py
says what may be skipped, record.py's Recorder collects the facts,
incremental.py wraps the recorder for an editor's next walk (checkpoints and take-over), and
library.py walks the functions never called."""

from __future__ import annotations

import os
from ..records import tuple_record

from .apply import Applier
from .children import Children
from .commands import shebang_errexit
from .context import Input, Where
from .declare import Declarations
from .facts import FlowResult, Launch
from .incremental import Incremental, Resume, Unmapped, moved_states, moves_of
from .launches import Launches
from .library import Library
from .loops import Loops
from .record import Recorder
from .relevance import Inertness, RelevanceMemo, relevant_names
from .sourcing import Sourcing
from .state import State
from .values import Values
from .walk import Walker

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


@tuple_record
class EditorWalk:
    """An editor's walk: the facts, and what only the editor's next walk reads."""

    facts: FlowResult
    resume: Resume  # where the walk of an edited version may start again
    resumed_at: int  # top-level statements taken from an earlier walk (0: walked from the start)
    resynced_at: int  # where the walk took the rest from the earlier walk (0: it did not)


class Flow:
    """The walk of one script. Create one per analysis and call run() (or run_for_editor())."""

    def __init__(self, script, data: bytes, path: Optional[str] = None, loader=None,
                 resume: Optional[Resume] = None, record: bool = False, edits: Optional[list] = None,
                 wide: bool = False):
        path = os.path.abspath(path) if path else None
        self.memo = RelevanceMemo(resume.memo if resume is not None else None) if record else None
        self.inp = Input(script, data, path, loader, relevant_names(script, self.memo, wide), record, wide,
                         shebang_errexit(data))
        self.rec = Recorder()
        self.where = Where(path)
        self.evaluator = Values(self.inp, self.where, self.rec)
        self.inertness = Inertness(self.inp, self.rec)
        self.walker = Walker(self.inp, self.where, self.rec, self.evaluator, self.inertness)
        declarations = Declarations(self.inp, self.where, self.rec, self.evaluator)
        self.applier = Applier(self.inp, self.where, self.rec, self.evaluator, self.inertness, self.walker,
                               declarations)
        self.launching = Launches(self.inp, self.where, self.rec, self.evaluator, declarations, self.applier)
        self.sourcing = Sourcing(self.inp, self.where, self.rec, self.walker)
        self.kids = Children(self.inp, self.where, self.rec, self.evaluator, declarations, self.applier, self.walker,
                             self.sourcing)
        self.applier.connect(self.launching, self.sourcing, self.kids)
        self.walker.connect(self.applier, declarations, Loops(self.where, self.evaluator, self.walker))
        self.incremental = Incremental(self.inp, self.rec, self.where, self.walker, self.sourcing, resume,
                                       moves_of(edits))
        self.library = Library(self.inp, self.rec, self.where, self.walker, self.sourcing, self.incremental)

    def run(self) -> FlowResult:
        """Walk the whole script and return the facts."""
        return self.run_for_editor().facts

    def run_for_editor(self) -> EditorWalk:
        """Walk the whole script; with record, leave the checkpoints for the next version's walk."""
        try:
            return self.walk()
        finally:
            self.release()

    def release(self) -> None:
        """Break the references the parts hold to each other (the walker's table holds the
        applier's methods and its own, the applier the parts it hands commands to): the walk's
        objects then go by reference counting, while an analysis pauses the cycle collector."""
        self.walker.statements.clear()
        self.applier.connect(None, None, None)

    def walk(self) -> EditorWalk:
        """The walk and its facts (run_for_editor)."""
        inc, rec = self.incremental, self.rec
        states, points, resumed = inc.start()
        try:
            states = inc.top(self.inp.script.body.body, resumed, states, points)
            if inc.resynced:
                # the paths at the end are the last walk's: needed as they are only without a launch
                if not rec.launches:
                    states = moved_states(inc.end.states, inc.mapper(inc.end.moves))
            elif self.inp.record:
                inc.end = inc.checkpoint(len(self.inp.script.body.body), states)
            sourced = bool(rec.dependencies or self.sourcing.source_cache)  # before the library functions
            self.library.library_functions()
        except Unmapped:
            # a fact taken from the last walk points into edited bytes (Incremental.resync checks
            # for this; this is the safety net): walk the whole script instead
            inp = self.inp
            return Flow(inp.script, inp.data, inp.path, inp.loader, None, inp.record, wide=inp.wide).run_for_editor()
        if not rec.launches:
            self.end_of_file(states)
        body = self.inp.script.body.body
        resume = Resume(body, [st.start for st in body], self.inp.relevant, self.inp.path, points, rec.logs(),
                        inc.end, sourced, self.memo, self.library.library_runs) if self.inp.record else None
        return EditorWalk(self.facts(), resume, resumed, inc.resynced)

    def end_of_file(self, states: list) -> None:
        """A script without a launch is judged at its end, anchored on the last line that holds
        anything, from its first character that is not a blank (where the statement there starts,
        so that a disable comment on the line before covers it)."""
        data = self.inp.data
        end = len(data.rstrip())
        line_start = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1
        while line_start < end and data[line_start] in b" \t":
            line_start += 1
        launch = Launch(end, end, line_start, end, "end of file", implicit=True)
        for st in states:  # a path that ran `exit` ends the script where it stopped
            launch.paths.append(self.launching.see(st, [], [], implicit=True))
        if not launch.paths:
            launch.paths.append(self.launching.see(State({}, relevant=self.inp.relevant), [], [], implicit=True))
        self.rec.launches[(end, end)] = launch

    def facts(self) -> FlowResult:
        """The facts, for the rules."""
        rec = self.rec
        return FlowResult(
            launches=sorted(rec.launches.values(), key=lambda l: l.start),
            gate_sites=list(rec.gate_sites.values()),
            overwritten=[v for k, v in rec.overwrites.items() if k not in rec.read],
            lost=list(rec.lost.values()),
            extra_occurrences=rec.extra_occ,
            children=rec.children,
            truncated=rec.truncated,
            unfollowed=rec.unfollowed,
            foreign=rec.foreign,
            dependencies=rec.dependencies,
            sourced_at=dict(rec.sourced_at),
            overwritten_in=dict(rec.overwritten_in),
        )


def analyze_flow(script, data: bytes, path: Optional[str] = None, loader=None, wide: bool = False) -> FlowResult:
    """Run the flow analysis over a parsed script (loader reads sourced files; None: not followed).

    wide: follow every word a launch is given, not only those the checks read (a dry run's
    argv); costs up to a third more on a long launcher.
    """
    return Flow(script, data, path, loader, wide=wide).run()


def analyze_flow_for_editor(script, data: bytes, path: Optional[str] = None, loader=None,
                            resume: Optional[Resume] = None, edits: Optional[list] = None,
                            wide: bool = False) -> EditorWalk:
    """The flow analysis of an editor's document: the facts, and checkpoints in `resume` for the
    walk of its next version. resume: those of the last walk, where they still apply; edits:
    the edits from the text of that walk to this one ((start, old end, new end), as parse_bytes)."""
    return Flow(script, data, path, loader, resume, True, edits, wide).run_for_editor()
