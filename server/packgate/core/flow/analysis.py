"""One flow analysis: the Flow object that holds a walk's tables, assembled from the parts that
each do one job (walk.py walks, commands.py says what commands do and apply.py applies it,
values.py evaluates words, launches.py, sourcing.py and children.py handle launches, `source` and child shells,
relevance.py what may be skipped, incremental.py the checkpoints and take-over, library.py
the functions never called), and run()."""

from __future__ import annotations

import os
from typing import Optional

from .children import Children
from .apply import EFFECTS, Applier
from .commands import shebang_errexit
from .facts import FlowResult, Launch
from .incremental import Checkpoint, Incremental, Resume, Unmapped, moved_states, moves_of
from .launches import Launches
from .library import Library
from .relevance import Inertness, RelevanceMemo, relevant_names
from .sourcing import Sourcing
from .state import State
from .values import Values
from .walk import STATEMENTS, Walker


class Flow(Walker, Applier, Values, Launches, Sourcing, Children, Inertness, Incremental, Library):
    """The walk of one script. Create one per analysis and call run()."""

    def __init__(self, script, data: bytes, path: Optional[str] = None, loader=None,
                 resume: Optional[Resume] = None, record: bool = False, edits: Optional[list] = None,
                 wide: bool = False):
        self.script = script
        self.wide = wide  # every word a launch is given is followed (`packgate launches`)
        self.resume_from = resume
        self.record = record
        self.moves = moves_of(edits)  # from the version `resume` was walked on to this one
        self.data = data
        self.path = os.path.abspath(path) if path else None
        self.loader = loader
        self.new_logs()  # the tables of incremental.TABLES
        self.mappers: dict = {}  # Moves -> its Mapper (Incremental.mapper)
        # where the walk is
        self.file_stack: list = [self.path]  # the file being walked (None: the main text has no path)
        self.sourced = False  # walking a sourced file (len(file_stack) > 1, read on every value)
        self.via: Optional[tuple] = None  # the main file's `source` command while walking a sourced file
        self.call_depth = 0
        self.calling: list = []  # the functions being walked, outermost first
        self.call_steps = 0  # statements walked inside the calls of the current top-level statement
        self.child_depth = 0
        self.loop_depth = 0  # for loops being walked pass by pass (walk.for_items)
        self.no_errexit = 0  # > 0 where bash suspends `set -e` (conditions, lists, after `!`)
        self.errexit_at_start = shebang_errexit(data)
        # tables filled from the logs (incremental.Incremental.define, lost_entry, add_path)
        self.launches: dict = {}  # launch key (its span) -> Launch
        self.functions: dict = {}  # name -> FuncDef
        self.def_states: dict = {}  # name -> (paths where it was defined, Moves they still need)
        self.lost: dict = {}  # Assign -> Lost
        # facts of sourced files (no checkpoint is taken once a file is sourced)
        self.sourced_at: dict = {}  # Assign in a sourced file -> span of its source command
        self.overwritten_in: dict = {}  # overwriting statement in a sourced file -> (file, span)
        self.foreign: dict = {}
        self.dependencies: set = set()
        self.source_cache: dict = {}
        # memories
        self.literals: dict = {}  # literal Word of this script -> its Val
        self.sourced_literals: dict = {}  # ... of a sourced file (its offsets are the file's)
        self.args_cache: dict = {}  # FuncDef -> the positional parameters its body reads
        self.inert_cache: dict = {}  # (Block, fn_version) -> (inert, the functions the answer read)
        self.child_cache: dict = {}  # span of a `bash -c` string -> its model
        self.folder_changes: Optional[bool] = None  # the script runs cd/pushd/popd (Launches.changes_folder)
        self.written_files: dict = {}  # a sourced path -> whether the script writes it (Sourcing.writes_file)
        # counters (incremental.Scalars)
        self.fn_version = 0  # function definitions walked so far (inert() depends on them)
        self.made = 0  # assignments and subshells the walk made up (env X=1, ${X:=d}, bash -c)
        self.truncated = False
        self.sub_launches = 0
        self.resynced = 0
        self.end: Optional[Checkpoint] = None
        self.library_runs: list = []  # of library.LibraryRun, in the order they were walked

    def run(self) -> FlowResult:
        """Walk the whole script and return the facts."""
        self.memo = RelevanceMemo(self.resume_from.memo if self.resume_from is not None else None) \
            if self.record else None
        self.relevant = relevant_names(self.script, self.memo, self.wide)
        states, points, resumed = self.start()
        try:
            states = self.top(self.script.body.body, resumed, states, points)
            if self.resynced:
                # the paths at the end are the last walk's: needed as they are only without a launch
                if not self.launches:
                    states = moved_states(self.end.states, self.mapper(self.end.moves))
            elif self.record:
                self.end = self.checkpoint(len(self.script.body.body), states)
            sourced = bool(self.dependencies or self.source_cache)  # before the library functions
            self.library_functions()
        except Unmapped:
            # a fact taken from the last walk points into edited bytes (Incremental.resync checks
            # for this; this is the safety net): walk the whole script instead
            return Flow(self.script, self.data, self.path, self.loader, None, self.record, wide=self.wide).run()
        if not self.launches:
            self.end_of_file(states)
        return self.result(points, resumed, sourced)

    def end_of_file(self, states: list) -> None:
        """A script without a launch is judged at its end, anchored on the last line that holds anything."""
        end = len(self.data.rstrip())
        line_start = max(self.data.rfind(b"\n", 0, end), self.data.rfind(b"\r", 0, end)) + 1
        launch = Launch(end, end, line_start, end, "end of file", implicit=True)
        for st in states:  # a path that ran `exit` ends the script where it stopped
            launch.paths.append(self.see(st, [], [], implicit=True))
        if not launch.paths:
            launch.paths.append(self.see(State({}, relevant=self.relevant), [], [], implicit=True))
        self.launches[(end, end)] = launch

    def result(self, points: list, resumed: int, sourced: bool) -> FlowResult:
        """The facts, for the rules (sourced: a file was sourced before the library functions)."""
        body = self.script.body.body
        return FlowResult(
            launches=sorted(self.launches.values(), key=lambda l: l.start),
            gate_sites=list(self.gate_sites.values()),
            overwritten=[v for k, v in self.overwrites.items() if k not in self.read],
            lost=list(self.lost.values()),
            extra_occurrences=self.extra_occ,
            children=self.children,
            truncated=self.truncated,
            unfollowed=self.unfollowed,
            foreign=self.foreign,
            dependencies=self.dependencies,
            resume=Resume(body, [st.start for st in body], self.relevant, self.path, points,
                          self.logs(), self.end, sourced, self.memo, self.library_runs) if self.record else None,
            resumed_at=resumed,
            resynced_at=self.resynced,
            sourced_at=dict(self.sourced_at),
            overwritten_in=dict(self.overwritten_in),
        )


# the walk's dispatch: model type -> the method that walks it
Flow.statements = {kind: getattr(Flow, name) for kind, name in STATEMENTS.items()}
# the effects' application: effect type -> the method that applies it
Flow.effects = {kind: getattr(Flow, name) for kind, name in EFFECTS.items()}


def analyze_flow(script, data: bytes, path: Optional[str] = None, loader=None,
                 resume: Optional[Resume] = None, record: bool = False,
                 edits: Optional[list] = None, wide: bool = False) -> FlowResult:
    """Run the flow analysis over a parsed script (loader reads sourced files; None: not followed).

    wide: follow every word a launch is given, not only those the checks read (a dry run's
    argv); costs up to a third more on a long launcher.

    record: leave checkpoints in the result's `resume` for the walk of the next version (an
    editor's document); resume: those of the last walk, where they still apply; edits: the
    edits from the text of that walk to this one ((start, old end, new end), as parse_bytes).
    """
    return Flow(script, data, path, loader, resume, record, edits, wide).run()
