"""The recorder: every fact one walk collects for the rules, in append-only logs.

The walk's parts write what they find here and nowhere else (the gate assignments that ran,
the overwrites, the launches and the paths reaching them, the functions defined, the child
shells, what could not be followed), and read back the tables derived from the logs. Each log
is a field of Recorder and a row of TABLES (how it is kept, whether entries after a take-over
point can be taken). A checkpoint keeps the length of each log, so the recorder at any
checkpoint is made from prefixes of another walk's logs (restore); the incremental layer
(incremental.py) wraps this class and never becomes part of it.
"""

from __future__ import annotations

from enum import Enum
from functools import partial
from itertools import islice
from ..records import tuple_record

from .facts import Launch, LaunchPath, Lost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Callable, Optional


@tuple_record
class LostEntry:
    """An assignment a child process made and lost with it."""

    key: object  # the Assign
    lost: Lost


@tuple_record
class Define:
    """A function definition walked: the paths where it was defined, the Moves they still need."""

    name: str
    fdef: object  # None: removed by `unset -f`
    forks: list
    moves: Optional[tuple]  # a chain of incremental.Moves


@tuple_record
class LaunchEntry:
    """One path reaching a launch: the launch's key (its span), a Launch with its place, the path."""

    key: tuple
    header: Launch
    path: LaunchPath


@tuple_record
class Scalars:
    """The walk's counters a checkpoint keeps besides its logs."""

    truncated: bool
    sub_launches: int
    made: int
    fn_version: int


class Kind(Enum):
    DICT = "an ordered dict, only added to"
    LIST = "a list, only appended to"
    ENTRIES = "a list of entries, each replayed into derived tables by a Recorder method"


class Recorder:
    """The facts of one walk: its logs (TABLES, in that order), the tables derived from three of
    them, the facts of sourced files and the walk's counters."""

    def __init__(self) -> None:
        # the logs, in TABLES order
        self.gate_sites: dict = {}  # Assign -> GateSite, every gate assignment that ran
        self.overwrites: dict = {}  # Assign -> Overwrite
        self.read: dict = {}  # Assign whose value was read -> None
        self.called: dict = {}  # function name -> None, in call order
        # the name of every function whose definition the walk used: called, looked into to see
        # whether it is inert, or defined again (a take-over lets a definition differ where none
        # of the rest used it)
        self.looked_up: list = []
        self.fn_log: list = []  # of Define, replayed by define()
        self.lost_log: list = []  # of LostEntry, replayed by lost_entry()
        self.launch_log: list = []  # of LaunchEntry, replayed by add_path()
        self.extra_occ: list = []  # Occurrences a `bash -c` string or a made-up assignment adds
        self.children: list = []  # the model of each `bash -c` body walked
        self.child_log: list = []  # the child_cache key of each of children
        self.unfollowed: list = []  # of Unfollowed
        # derived from the logs
        self.launches: dict = {}  # launch key (its span) -> Launch
        self.functions: dict = {}  # name -> FuncDef
        self.def_states: dict = {}  # name -> (paths where it was defined, Moves they still need)
        self.lost: dict = {}  # Assign -> Lost
        self.child_cache: dict = {}  # span of a `bash -c` string -> its model (children by child_log)
        # facts of sourced files (no checkpoint is taken once a file is sourced)
        self.sourced_at: dict = {}  # Assign in a sourced file -> span of its source command
        self.overwritten_in: dict = {}  # overwriting statement in a sourced file -> (file, span)
        self.foreign: dict = {}
        self.dependencies: set = set()
        # the counters (Scalars)
        self.truncated = False
        self.sub_launches = 0
        self.made = 0  # assignments and subshells the walk made up (env X=1, ${X:=d}, bash -c)
        self.fn_version = 0  # function definitions walked so far (inert() depends on them)

    def logs(self) -> tuple:
        """The logs, in TABLES order."""
        return (self.gate_sites, self.overwrites, self.read, self.called, self.looked_up, self.fn_log,
                self.lost_log, self.launch_log, self.extra_occ, self.children, self.child_log, self.unfollowed)

    def lens(self) -> tuple:
        """How long each log is now."""
        return tuple(len(log) for log in self.logs())

    def scalars(self) -> Scalars:
        """The counters now."""
        return Scalars(self.truncated, self.sub_launches, self.made, self.fn_version)

    def set_scalars(self, scalars: Scalars) -> None:
        """The counters as a checkpoint kept them."""
        self.truncated, self.sub_launches, self.made, self.fn_version = scalars

    def tested(self) -> tuple:
        """The logs a walk tests keys of (setdefault, `in`), by name: a key in one walk only, where
        a function's walk may test it, makes that walk differ."""
        return (("gate_sites", self.gate_sites), ("overwrites", self.overwrites), ("read", self.read))

    # the logs whose entries fill tables of their own: each entry goes through one of these, in
    # the walk and when restore() or a take-over replays another walk's entries
    def lost_entry(self, entry: LostEntry) -> None:
        """An assignment lost with its child process."""
        self.lost[entry.key] = entry.lost
        self.lost_log.append(entry)

    def define(self, entry: Define) -> None:
        """A function defined (see Define); fdef None: removed by `unset -f`."""
        if entry.fdef is None:
            self.functions.pop(entry.name, None)
            self.def_states.pop(entry.name, None)
        else:
            self.functions[entry.name] = entry.fdef
            self.def_states[entry.name] = (entry.forks, entry.moves)
        self.fn_log.append(entry)

    def add_path(self, entry: LaunchEntry) -> None:
        """One path reaching a launch: the first path of a key records a launch like the given one."""
        launch = self.launches.get(entry.key)
        if launch is None:
            launch = self.launches[entry.key] = entry.header.header(0)
        launch.paths.append(entry.path)
        self.launch_log.append(entry)

    def putters(self) -> list:
        """For each log (TABLES order), how one entry is appended to it (an ENTRIES log replays it)."""
        out = []
        for t, log in zip(TABLES, self.logs()):
            if t.kind is Kind.DICT:
                out.append(partial(_put_item, log))
            elif t.kind is Kind.LIST:
                out.append(log.append)
            else:
                out.append(partial(t.replay, self))
        return out

    def restore(self, logs: tuple, lens: tuple) -> None:
        """The logs as they were at a checkpoint: the prefixes of another walk's logs (this
        recorder is fresh)."""
        for put, t, old, n in zip(self.putters(), TABLES, logs, lens):
            for entry in (islice(old.items(), n) if t.kind is Kind.DICT else islice(old, n)):
                put(entry)
        self.child_cache = dict(zip(self.child_log, self.children))


def _put_item(log: dict, entry: tuple) -> None:
    log.setdefault(*entry)


@tuple_record
class Table:
    """One log of the recorder."""

    name: str  # the Recorder field
    kind: Kind
    replay: Optional[Callable] = None  # ENTRIES: the Recorder method that takes one entry
    taken_over: bool = True  # False: entries after a take-over point make it fail


TABLES = (
    Table("gate_sites", Kind.DICT),
    Table("overwrites", Kind.DICT),
    Table("read", Kind.DICT),
    Table("called", Kind.DICT),
    Table("looked_up", Kind.LIST),
    Table("fn_log", Kind.ENTRIES, Recorder.define),
    Table("lost_log", Kind.ENTRIES, Recorder.lost_entry),
    Table("launch_log", Kind.ENTRIES, Recorder.add_path),
    Table("extra_occ", Kind.LIST),
    Table("children", Kind.LIST, taken_over=False),  # a `bash -c` body's model would need moving
    Table("child_log", Kind.LIST, taken_over=False),
    Table("unfollowed", Kind.LIST),
)
NAMES = tuple(t.name for t in TABLES)
