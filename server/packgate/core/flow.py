"""Walk the script model: the environment every launch would see, on every path, and why.

The walk keeps a list of states (one per path through if/case/&&/||/loops). A state maps each
shell variable to its value, its export attribute and the assignment it came from. Child
processes (subshells, background jobs, pipeline stages, command substitutions, `bash -c`,
containers) run on copies that are thrown away afterwards, which is exactly how their exports
get lost. Facts are computed once here; rules only read them.
"""

from __future__ import annotations

import os
import re
from itertools import islice
from typing import NamedTuple, Optional

from . import gates as G
from .parse import (AndOr, Assign, Block, Case, Command, Exit, ExportNames, FuncDef, If, Lit,
                    Loop, Opaque, Opaque_, Occurrence, Ref, SetOpt, Sub, Unset, Word, parse_bytes)
from .records import factory, record, replace

MAX_PATHS = 16  # distinct paths kept per statement; a launch rarely has more than 3 that differ
MAX_LABELS = 6  # branch decisions a path remembers (messages name the last two)
MAX_CALL_DEPTH = 8
# statements walked inside the function calls of one top-level statement: a launcher's stage
# function walks a few dozen; calls that fan out (each body calling several others, eight
# deep) would otherwise take minutes
MAX_CALL_STEPS = 20_000
MAX_CHILD_DEPTH = 3


# Val and Var are NamedTuples: cheap to create and compare, which the walk does a lot.
class Val(NamedTuple):
    """A value as far as the script can tell.

    kind: known (text is the value), default (text unless the caller sets `via`),
    unknown (the script cannot know; `via` says why), unset.
    """

    kind: str
    text: str = ""
    via: str = ""
    lit: Optional[tuple] = None  # byte span of the literal that decides the value
    span: Optional[tuple] = None  # byte span of the word it came from
    foreign: bool = False  # lit / span are offsets in a sourced file, not in this document


UNSET = Val("unset")


class Var(NamedTuple):
    """A shell variable in one state."""

    val: Val
    exported: bool
    origin: Optional[Assign]
    array: Optional[tuple] = None
    negated: bool = False  # `export -n`: the trainer does not see it, deliberately


@record
class State:
    """One path through the script.

    `vars` is only changed through set() and drop(), which keep `mark` (an order-independent
    fingerprint of the variables) current, so identical paths are found without comparing them
    variable by variable.
    """

    vars: dict
    allexport: bool = False
    labels: tuple = ()
    done: str = ""
    lost: dict = factory(dict)  # gate -> (Assign, Sub) exported where it got lost
    container: bool = False
    env_file: bool = False
    frames: tuple = ()  # per active function call: {name: Var or None} to restore on return
    removed: dict = factory(dict)  # gate -> (start, end) of the unset / export -n
    docker_at: int = -1  # in a container: where `-e NAME=...` can be added to `docker run`
    host_exported: frozenset = frozenset()  # in a container: names the host has exported
    mark: int = -1
    # names whose value can reach a check (None: all); paths that differ only elsewhere merge
    relevant: Optional[frozenset] = None

    def __post_init__(self):
        if self.mark == -1:
            mark = 0
            for name, var in self.vars.items():
                if self.relevant is None or name in self.relevant:
                    mark ^= hash((name, id(var)))
            self.mark = mark

    def set(self, name: str, var: "Var") -> None:
        """Give a variable a value."""
        old = self.vars.get(name)
        if self.relevant is None or name in self.relevant:
            if old is not None:
                self.mark ^= hash((name, id(old)))
            self.mark ^= hash((name, id(var)))
        self.vars[name] = var

    def drop(self, name: str):
        """Remove a variable; returns what it held, or None."""
        old = self.vars.pop(name, None)
        if old is not None and (self.relevant is None or name in self.relevant):
            self.mark ^= hash((name, id(old)))
        return old

    def same(self, other: "State") -> bool:
        """True when the two paths cannot lead to different findings."""
        if self.mark != other.mark or self.done != other.done or self.allexport != other.allexport \
                or self.lost != other.lost or self.removed != other.removed \
                or self.frames != other.frames or self.env_file != other.env_file \
                or self.docker_at != other.docker_at:
            return False
        if self.relevant is None:
            return self.vars == other.vars
        mine, theirs = self.vars, other.vars
        return all(mine.get(n) == theirs.get(n) for n in self.relevant)

    def fork(self, label=None) -> "State":
        """A copy for another path."""
        return State(dict(self.vars), self.allexport,
                     (self.labels + (label,))[-MAX_LABELS:] if label else self.labels, self.done,
                     dict(self.lost),
                     self.container, self.env_file, tuple(dict(f) for f in self.frames),
                     dict(self.removed), self.docker_at, self.host_exported, self.mark, self.relevant)

    def save_local(self, name: str) -> None:
        """Remember a variable's value before a function makes it local."""
        if self.frames and name not in self.frames[-1]:
            self.frames[-1][name] = self.vars.get(name)


@record(frozen=True)
class Seen:
    """What a launch sees of one gate on one path."""

    val: Val  # UNSET when absent
    origin: Optional[Assign]  # the assignment that set the value the launch sees
    unexported: Optional[Assign] = None  # set in the script but never exported
    lost: Optional[tuple] = None  # (Assign, Sub): exported where the launch cannot see it
    removed: Optional[tuple] = None  # (start, end) of the unset / export -n that removed it


@record(eq=True)
class LaunchPath:
    """One path reaching a launch."""

    labels: tuple
    gates: dict  # gate name -> Seen
    mbs: Optional[Val]  # the value after --micro-batch-size, None when absent
    mbs_flag: Optional[tuple]  # span of the flag word
    sft: bool
    pretrain: bool
    docker_at: int = -1  # the launch runs in a container started by `docker run` (insert point)
    host_exported: frozenset = frozenset()


@record(eq=True)
class Launch:
    """A command that starts the trainer (or the end of a file without one)."""

    start: int
    end: int
    name_start: int
    name_end: int
    label: str
    implicit: bool = False
    paths: list = factory(list)


@record(eq=True)
class FlowResult:
    """Everything the rules need."""

    launches: list
    gate_sites: list  # every Assign of a gate variable that ran: (Assign, Val)
    overwritten: list  # (Assign, Assign|Unset)
    lost: list  # (Assign, Sub)
    extra_occurrences: list
    children: list  # parsed Scripts of `bash -c` / container bodies (for directives)
    truncated: bool = False
    site_via: dict = factory(dict)  # id(Assign in a sourced file) -> (start, end) of the source command
    overwrite_sites: dict = factory(dict)  # id(overwriting statement in a sourced file) -> (file, source command span)
    unfollowed: list = factory(list)  # (start, end, reason) of source commands not followed
    foreign: dict = factory(dict)  # sourced file path -> its text
    dependencies: set = factory(set)  # every file the analysis read (or tried to)
    resume: object = None  # Resume: where the walk of an edited version may start again
    resumed_at: int = 0  # top-level statements taken from an earlier walk (0: walked from the start)
    resynced_at: int = 0  # where the walk took the rest from the earlier walk (0: it did not)


@record
class Checkpoint:
    """The walk between two top-level statements: copies of its paths, and how long each of its
    logs was (every table the walk fills is a log that only grows, see _LOGS). Taken only while
    no file has been sourced (a sourced file can change on disk without the script changing)."""

    index: int  # top-level statements walked before it
    states: list
    lens: tuple  # len() of each of _LOGS
    scalars: tuple  # truncated, sub_launches, made, fn_version
    # the offsets in `states` are those of an earlier version of the document: map them first
    moves: Optional["Moves"] = None


@record
class Resume:
    """What a walk leaves for the walk of the next version of the same document.

    A later walk whose first top-level statements are the very same objects at the same offsets
    (the parser took them over unmoved), and whose relevant names and path are the same, starts
    at the last checkpoint inside that common prefix instead of at the top. Past the edit, when
    it reaches a checkpoint of this walk with the same paths and nothing else that can make the
    rest of the walk differ, it takes the rest from here (moved by the edit) instead of walking
    it: see Flow.resync."""

    body: list
    starts: list  # where each statement of body started (the parser moves statements in place)
    relevant: Optional[frozenset]
    path: Optional[str]
    points: list
    logs: Optional[tuple] = None  # the walk's logs (_LOGS), valid up to end.lens
    end: Optional[Checkpoint] = None  # the walk after the last top-level statement
    sourced: bool = False  # a file was sourced: nothing after it is taken over
    memo: Optional["RelevanceMemo"] = None  # relevant_names' memory


# The walk's tables, each a log that only grows in walk order: a checkpoint keeps their lengths,
# and the tables at any checkpoint are the prefixes of the last walk's logs. The dicts (ordered)
# are only ever added to; the lists of (key, value) entries replay into dicts that may be
# written again (functions, lost) or grow (a launch's paths).
_LOGS = ("gate_sites", "overwrites", "read", "called", "fn_log", "lost_log", "launch_log", "extra_occ",
         "children", "child_log", "unfollowed")
CHECKPOINTS = 16  # per walk, evenly spread over the top-level statements


class Moves(NamedTuple):
    """Where the offsets of one version of a document are in a later one: below lo they stayed,
    from hi on they moved by delta; the edited bytes in between have no counterpart."""

    lo: int
    hi: int
    delta: int


def moves_of(edits) -> Optional[Moves]:
    """The Moves of a list of edits ((start, old end, new end), each on the text the one before
    it left); None for none."""
    m = None
    for start, old_end, new_end in edits or ():
        m = compose(m, Moves(start, old_end, new_end - old_end))
    return m


def compose(a: Optional[Moves], b: Optional[Moves]) -> Optional[Moves]:
    """a, then b, as one Moves (its unmapped range covers both edits and what lies between)."""
    if a is None:
        return b
    if b is None:
        return a
    lo1, hi1, d1 = a
    lo2, hi2, d2 = b
    # b's end in a's coordinates: unchanged below a's edit, moved back above its new text
    if hi2 <= lo1:
        pre = hi2
    elif hi2 >= hi1 + d1:
        pre = hi2 - d1
    else:
        pre = hi1
    return Moves(min(lo1, lo2), max(hi1, pre), d1 + d2)


class _Unmapped(Exception):
    """An offset inside edited bytes: the fact that holds it does not carry over."""


class _Mapper:
    """Carries the walk's facts (values, paths, launches) from one version's offsets to another's."""

    __slots__ = ("lo", "hi", "delta", "relevant")

    def __init__(self, moves: Moves, relevant: Optional[frozenset]):
        self.lo, self.hi, self.delta = moves
        self.relevant = relevant

    def start(self, x: int) -> int:
        if x < self.lo:
            return x
        if x >= self.hi:
            return x + self.delta
        raise _Unmapped

    def end(self, x: int) -> int:
        if x <= self.lo:
            return x
        if x >= self.hi:
            return x + self.delta
        raise _Unmapped

    def span(self, sp):
        """A (start, end) range: it must lie wholly before or wholly after the edit."""
        if sp is None:
            return None
        a, b = sp[0], sp[1]
        if b <= self.lo:
            return sp
        if a >= self.hi:
            d = self.delta
            return (a + d, b + d) + tuple(sp[2:])
        raise _Unmapped

    def val(self, v: "Val") -> "Val":
        lit, span = v.lit, v.span
        lo = self.lo
        if (lit is None or lit[1] <= lo) and (span is None or span[1] <= lo):
            return v
        return v._replace(lit=self.span(lit), span=self.span(span))

    def var(self, v: "Var") -> "Var":
        val = self.val(v.val)
        array = v.array
        if array is not None:
            mapped = tuple(self.val(x) for x in array)
            if any(a is not b for a, b in zip(mapped, array)):
                array = mapped
        if val is v.val and array is v.array:
            return v
        return v._replace(val=val, array=array)

    def vars(self, vs: dict) -> dict:
        relevant = self.relevant
        return {n: (self.var(v) if v is not None and (relevant is None or n in relevant) else v)
                for n, v in vs.items()}

    def state(self, s: "State") -> "State":
        """A copy of a path with its relevant values, labels and ranges moved (the other
        variables never reach a check: they are kept as they are)."""
        return State(self.vars(s.vars), s.allexport, tuple((self.start(o), t) for o, t in s.labels), s.done,
                     dict(s.lost), s.container, s.env_file, tuple(self.vars(f) for f in s.frames),
                     {g: self.span(sp) for g, sp in s.removed.items()},
                     self.end(s.docker_at) if s.docker_at >= 0 else -1, s.host_exported, -1, s.relevant)

    def seen(self, x: "Seen") -> "Seen":
        return Seen(self.val(x.val), x.origin, x.unexported, x.lost, self.span(x.removed))

    def path(self, p: "LaunchPath") -> "LaunchPath":
        return LaunchPath(tuple((self.start(o), t) for o, t in p.labels),
                          {g: self.seen(x) for g, x in p.gates.items()},
                          self.val(p.mbs) if p.mbs is not None else None, self.span(p.mbs_flag), p.sft,
                          p.pretrain, self.end(p.docker_at) if p.docker_at >= 0 else -1, p.host_exported)

    def launch(self, l: "Launch") -> "Launch":
        """The launch's header (where it is), without its paths."""
        start, end = self.span((l.start, l.end))
        name_start, name_end = self.span((l.name_start, l.name_end))
        return Launch(start, end, name_start, name_end, l.label, l.implicit)


def _moved_states(states: list, moves: Optional[Moves], relevant: Optional[frozenset]) -> list:
    """Copies of paths recorded at another version's offsets, moved to this one's (raises
    _Unmapped when one points into edited bytes)."""
    if moves is None:
        return [s.fork() for s in states]
    mapper = _Mapper(moves, relevant)
    return [mapper.state(s) for s in states]


def _same_path(new: "State", old: "State", relevant: Optional[frozenset]) -> bool:
    """Whether two paths (old already moved to new's offsets) lead to the same walk from here:
    the same relevant values from the same assignments, labels, flags and lost exports."""
    if new.done != old.done or new.allexport != old.allexport or new.labels != old.labels \
            or new.container != old.container or new.env_file != old.env_file \
            or new.docker_at != old.docker_at or new.host_exported != old.host_exported \
            or new.removed != old.removed or len(new.frames) != len(old.frames):
        return False
    if new.lost.keys() != old.lost.keys() or any(
            new.lost[k][0] is not old.lost[k][0] or new.lost[k][1] is not old.lost[k][1] for k in new.lost):
        return False
    for mine, theirs in zip((new.vars,) + new.frames, (old.vars,) + old.frames):
        names = mine.keys() | theirs.keys()
        for n in names:
            if relevant is not None and n not in relevant and mine is new.vars:
                continue
            a, b = mine.get(n), theirs.get(n)
            if a is b:
                continue
            if a is None or b is None or a.origin is not b.origin or a.exported != b.exported \
                    or a.negated != b.negated or a.val != b.val or a.array != b.array:
                return False
    return True


_POSITIONAL = re.compile(r"^([0-9]+|[@*#?$!-])$")


class Flow:
    """The walker. Create one per analysis and call run()."""

    def __init__(self, script, data: bytes, path: Optional[str] = None, loader=None,
                 resume: Optional[Resume] = None, record: bool = False, edits: Optional[list] = None):
        self.script = script
        self.resume_from = resume
        self.record = record
        self.moves = moves_of(edits)  # from the version `resume` was walked on to this one
        self.data = data
        self.path = os.path.abspath(path) if path else None
        self.loader = loader
        self.file_stack: list = [self.path]  # the file being walked (None: the main text has no path)
        self.sourced = False  # walking a sourced file (len(file_stack) > 1, read on every value)
        self.via: Optional[tuple] = None  # the main file's `source` command while walking a sourced file
        self.site_via: dict = {}
        self.unfollowed: list = []
        self.foreign: dict = {}
        self.dependencies: set = set()
        self.source_cache: dict = {}
        self.literal_cache: dict = {}
        self.args_cache: dict = {}
        self.inert_cache: dict = {}
        self.launches: dict = {}
        self.launch_log: list = []  # (key, Launch, LaunchPath) in walk order
        self.functions: dict = {}
        self.def_states: dict = {}  # name -> (paths where it was defined, Moves they still need)
        self.fn_log: list = []  # (name, FuncDef, paths, Moves)
        self.fn_version = 0  # function definitions walked so far (inert() depends on them)
        self.called: dict = {}  # names, in order (an ordered set)
        self.read: dict = {}  # id -> assignment whose value was read
        self.overwrites: dict = {}
        self.overwrite_sites: dict = {}  # id(overwriting statement in a sourced file) -> (file, source command span)
        self.gate_sites: dict = {}
        self.lost: dict = {}
        self.lost_log: list = []  # (id, (Assign, Sub))
        self.extra_occ: list = []
        self.children: list = []
        self.child_log: list = []  # the child_cache key of each of children
        self.child_cache: dict = {}
        self.made = 0  # assignments and subshells the walk made up (env X=1, ${X:=d}, bash -c)
        self.call_depth = 0
        self.calling: list = []  # the functions being walked, outermost first
        self.call_steps = 0  # statements walked inside the calls of the current top-level statement
        self.child_depth = 0
        self.truncated = False
        self.sub_launches = 0
        self.resynced = 0
        self.end: Optional[Checkpoint] = None

    # ------------------------------------------------------------ driver
    def run(self) -> FlowResult:
        """Walk the whole script and return the facts."""
        self.memo = RelevanceMemo(self.resume_from.memo if self.resume_from is not None else None) \
            if self.record else None
        self.relevant = relevant_names(self.script, self.memo)
        states, points, resumed = self.start()
        try:
            states = self.top(self.script.body.body, resumed, states, points)
            if self.resynced:
                # the paths at the end are the last walk's: needed as they are only without a launch
                if not self.launches:
                    states = _moved_states(self.end.states, self.end.moves, self.relevant)
            elif self.record:
                self.end = self.checkpoint(len(self.script.body.body), states)
            sourced = bool(self.dependencies or self.source_cache)
            for name, fdef in list(self.functions.items()):
                if name not in self.called:  # a library function: judge it where it was defined
                    self.called[name] = None
                    self.call_steps = 0
                    forks, moves = self.def_states.get(name, ([State({}, relevant=self.relevant)], None))
                    self.call(fdef, _moved_states(forks, moves, self.relevant))
        except _Unmapped:
            # a fact taken from the last walk points into edited bytes (Flow.resync checks for
            # this; this is the safety net): walk the whole script instead
            return Flow(self.script, self.data, self.path, self.loader, None, self.record).run()
        if not self.launches:
            # judged at the end: anchored on the last line that holds anything
            end = len(self.data.rstrip())
            line_start = max(self.data.rfind(b"\n", 0, end), self.data.rfind(b"\r", 0, end)) + 1
            launch = Launch(end, end, line_start, end, "end of file", implicit=True)
            for st in states:
                if st.done == "exit":
                    continue
                launch.paths.append(self.see(st, [], [], implicit=True))
            if not launch.paths:
                launch.paths.append(self.see(State({}, relevant=self.relevant), [], [], implicit=True))
            self.launches[(end, end)] = launch
        body = self.script.body.body
        return FlowResult(
            launches=sorted(self.launches.values(), key=lambda l: l.start),
            gate_sites=list(self.gate_sites.values()),
            overwritten=[v for k, v in self.overwrites.items() if k not in self.read],
            overwrite_sites=self.overwrite_sites,
            lost=list(self.lost.values()),
            extra_occurrences=self.extra_occ,
            children=self.children,
            truncated=self.truncated,
            site_via=self.site_via,
            unfollowed=self.unfollowed,
            foreign=self.foreign,
            dependencies=self.dependencies,
            resume=Resume(body, [st.start for st in body], self.relevant, self.path, points,
                          tuple(getattr(self, n) for n in _LOGS), self.end, sourced, self.memo)
            if self.record else None,
            resumed_at=resumed,
            resynced_at=self.resynced,
        )

    # ------------------------------------------------------------ resuming
    def start(self) -> tuple:
        """The paths to start the top-level walk with, the checkpoints still valid, and how
        many top-level statements they cover."""
        fresh = [State({}, relevant=self.relevant)]
        r = self.resume_from
        if r is None or r.logs is None or r.relevant != self.relevant or r.path != self.path or not r.points:
            return fresh, [], 0
        body, old, starts = self.script.body.body, r.body, r.starts
        same, limit = 0, min(len(body), len(old))
        while same < limit and body[same] is old[same] and body[same].start == starts[same]:
            same += 1
        points = [p for p in r.points if p.index <= same]
        if not points:
            return fresh, [], 0
        p = points[-1]
        try:
            states = _moved_states(p.states, p.moves, self.relevant)
        except _Unmapped:
            return fresh, [], 0
        self.restore(r.logs, p.lens)
        self.truncated, self.sub_launches, self.made, self.fn_version = p.scalars
        return states, points, p.index

    def restore(self, logs: tuple, lens: tuple) -> None:
        """The tables as they were at a checkpoint: the prefixes of the last walk's logs."""
        at = dict(zip(_LOGS, lens))
        old = dict(zip(_LOGS, logs))
        for name in ("gate_sites", "overwrites", "read", "called"):
            setattr(self, name, dict(islice(old[name].items(), at[name])))
        for name in ("extra_occ", "children", "child_log", "unfollowed"):
            setattr(self, name, old[name][:at[name]])
        for name, put in (("fn_log", self.define), ("lost_log", self.lost_entry), ("launch_log", self.add_path)):
            for entry in islice(old[name], at[name]):
                put(entry)
        self.child_cache = dict(zip(self.child_log, self.children))

    def candidates(self, body: list, first: int) -> dict:
        """The last walk's checkpoints where this walk may take the rest from it: inside the
        common tail of the two bodies (the same statement objects, moved by the edit), past
        where this walk started. New index -> Checkpoint."""
        r = self.resume_from
        if r is None or r.logs is None or r.end is None or r.sourced or r.relevant != self.relevant \
                or r.path != self.path:
            return {}
        old = r.body
        tail, limit = 0, min(len(body), len(old))
        while tail < limit and body[-1 - tail] is old[-1 - tail]:
            tail += 1
        if not tail:
            return {}
        shift = len(body) - len(old)
        lowest = max(first + 1, len(body) - tail)
        out = {}
        try:
            mapper = _Mapper(self.moves, None) if self.moves is not None else None
            for p in r.points:
                j = p.index + shift
                if lowest <= j < len(body) and p.index < len(old):
                    was = r.starts[p.index]
                    if (mapper.start(was) if mapper else was) == body[j].start:
                        out[j] = p
        except _Unmapped:
            return {}
        return out

    def top(self, body: list, first: int, states: list, points: list) -> list:
        """The top-level walk: block() over the script's statements from index first on,
        taking checkpoints on the way when asked to, and taking the rest from the last walk
        where its paths meet this one's again."""
        step = max(4, len(body) // CHECKPOINTS)
        cands = self.candidates(body, first) if self.record else {}
        for i in range(first, len(body)):
            if self.record and i > first and i % step == 0 and not self.dependencies \
                    and not self.source_cache:
                points.append(self.checkpoint(i, states))
            if i in cands and not self.dependencies and not self.source_cache \
                    and self.resync(cands[i], i, states, points):
                return states
            self.call_steps = 0
            after = self.step(body[i], states)
            if after is None:
                break
            states = after
        return states

    def checkpoint(self, index: int, states: list) -> Checkpoint:
        return Checkpoint(index, [st.fork() for st in states], tuple(len(getattr(self, n)) for n in _LOGS),
                          (self.truncated, self.sub_launches, self.made, self.fn_version))

    def resync(self, p: Checkpoint, j: int, states: list, points: list) -> bool:
        """At statement j, the last walk's checkpoint p (same statement, moved): when the paths
        are the same and nothing the rest of the walk reads differs, the rest of the walk would
        be the last walk's, moved by the edit. Take it: append the last walk's log entries after
        p (moved), and its later checkpoints. False (nothing changed) when anything differs."""
        r = self.resume_from
        end = r.end
        relevant = self.relevant
        moves = self.moves
        # 1. the same paths
        if len(states) != len(p.states):
            return False
        try:
            to_here = compose(p.moves, moves)
            mapper = _Mapper(to_here, relevant) if to_here is not None else None
            for mine, theirs in zip(states, p.states):
                if not _same_path(mine, mapper.state(theirs) if mapper else theirs, relevant):
                    return False
        except _Unmapped:
            return False
        # 2. nothing the rest reads differs, and nothing it made needs more than moving
        truncated, sub_launches, made, fn_version = p.scalars
        e_truncated, e_sub, e_made, e_fn = end.scalars
        if self.truncated != truncated or self.made != made or e_made != made:
            return False
        at, upto = dict(zip(_LOGS, p.lens)), dict(zip(_LOGS, end.lens))
        old = dict(zip(_LOGS, r.logs))
        if upto["children"] != at["children"]:
            return False  # a `bash -c` body after p: its model would need moving
        functions = {}
        for name, fdef, _, _ in islice(old["fn_log"], at["fn_log"]):
            functions[name] = fdef
        if functions.keys() != self.functions.keys() or any(
                functions[n] is not self.functions[n] for n in functions):
            return False
        if any(n not in self.called for n in islice(old["called"], at["called"])):
            return False  # the last walk called a function before p that this one did not
        later_fns = [entry[1] for entry in islice(old["fn_log"], at["fn_log"], upto["fn_log"])]
        bodies = list(self.functions.values()) + later_fns
        for name in ("gate_sites", "overwrites"):
            before = dict(islice(old[name].items(), at[name]))
            mine = getattr(self, name)
            if before.keys() != mine.keys():
                # an assignment seen before p by one walk only: fine unless the rest of the
                # walk can run it again (it sits in a function)
                differ = [v[0] for k, v in before.items() if k not in mine] + \
                         [v[0] for k, v in mine.items() if k not in before]
                if any(f.start <= a.start < f.end for a in differ for f in bodies):
                    return False
        unsure = [k for k in islice(old["read"], at["read"]) if k not in self.read]
        if unsure:
            # read before p by the last walk only: the rest may read it again or not, which
            # decides only whether an overwritten gate assignment was read
            final = set(self.overwrites)
            final.update(islice(old["overwrites"], at["overwrites"], upto["overwrites"]))
            if any(k in final for k in unsure):
                return False
        # 3. the rest of the last walk, moved (built first: nothing changes if a fact does not move)
        ahead = _Mapper(moves, relevant) if moves is not None else None
        later = [q for q in r.points if q.index > p.index]
        try:
            sites = [(k, (a, ahead.val(v) if ahead else v))
                     for k, (a, v) in islice(old["gate_sites"].items(), at["gate_sites"], upto["gate_sites"])]
            fns = [(name, fdef, forks, compose(fm, moves))
                   for name, fdef, forks, fm in islice(old["fn_log"], at["fn_log"], upto["fn_log"])]
            launches = [(ahead.span(key), ahead.launch(header), ahead.path(path)) if ahead else (key, header, path)
                        for key, header, path in islice(old["launch_log"], at["launch_log"], upto["launch_log"])]
            occ = [replace(o, start=ahead.start(o.start), end=ahead.end(o.end)) if ahead else o
                   for o in islice(old["extra_occ"], at["extra_occ"], upto["extra_occ"])]
            unfollowed = [ahead.span(u) if ahead else u
                          for u in islice(old["unfollowed"], at["unfollowed"], upto["unfollowed"])]
            end_moves = compose(end.moves, moves)
            called = set(self.called)
            called.update(islice(old["called"], at["called"], upto["called"]))
            for name, fdef, forks, fm in fns:
                if name not in called:  # judged where defined: check they move
                    _moved_states(forks, fm, relevant)
            if not self.launches and not launches:
                _moved_states(end.states, end_moves, relevant)
        except _Unmapped:
            return False
        # 4. append it, noting where each later checkpoint falls in this walk's logs
        cuts = [dict() for _ in later]

        def note(name: str, position: int) -> None:
            k = _LOGS.index(name)
            for q, cut in zip(later, cuts):
                if q.lens[k] == position:
                    cut[name] = len(getattr(self, name))

        def replay(name: str, entries, put) -> None:
            position = at[name]
            note(name, position)
            for entry in entries:
                put(entry)
                position += 1
                note(name, position)

        replay("gate_sites", sites, lambda e: self.gate_sites.setdefault(e[0], e[1]))
        replay("overwrites", islice(old["overwrites"].items(), at["overwrites"], upto["overwrites"]),
               lambda e: self.overwrites.setdefault(e[0], e[1]))
        replay("read", islice(old["read"].items(), at["read"], upto["read"]),
               lambda e: self.read.setdefault(e[0], e[1]))
        replay("called", islice(old["called"], at["called"], upto["called"]),
               lambda name: self.called.setdefault(name, None))
        replay("fn_log", fns, self.define)
        replay("lost_log", islice(old["lost_log"], at["lost_log"], upto["lost_log"]), self.lost_entry)
        replay("launch_log", launches, self.add_path)
        replay("extra_occ", occ, self.extra_occ.append)
        replay("unfollowed", unfollowed, self.unfollowed.append)
        for name in ("children", "child_log"):
            replay(name, (), None)
        shift = j - p.index
        subs, fns_before = self.sub_launches, self.fn_version
        for q, cut in zip(later, cuts):
            q_truncated, q_sub, q_made, q_fn = q.scalars
            points.append(Checkpoint(q.index + shift, q.states, tuple(cut[n] for n in _LOGS),
                                     (q_truncated, subs + q_sub - sub_launches, q_made, fns_before + q_fn - fn_version),
                                     compose(q.moves, moves)))
        self.truncated = e_truncated
        self.sub_launches = subs + e_sub - sub_launches
        self.fn_version = fns_before + e_fn - fn_version
        self.end = Checkpoint(len(self.script.body.body), end.states, tuple(len(getattr(self, n)) for n in _LOGS),
                              (self.truncated, self.sub_launches, self.made, self.fn_version), end_moves)
        self.resynced = j
        return True

    # ------------------------------------------------------------ statements
    def block(self, block: Block, states: list) -> list:
        for stmt in block.body:
            after = self.step(stmt, states)
            if after is None:
                break
            states = after
        return states

    def step(self, stmt, states: list) -> Optional[list]:
        """One statement of a block walked on every live path; None when no path is left."""
        if self.skippable(stmt):
            return states
        if self.calling:
            self.call_steps += 1
        live = [s for s in states if not s.done]
        if not live:
            return None
        # paths that ended with `exit` reach nothing: drop them; return/break wait for their frame
        dead = [s for s in states if s.done and s.done != "exit"]
        states = dead + self.stmt(stmt, live)
        if len(states) > MAX_PATHS // 2:
            states = self.prune(states)
        return states

    @staticmethod
    def merge(states: list) -> list:
        """Collapse paths that ended up identical (most branches change nothing that matters)."""
        if len(states) < 2:
            return states
        out: list = []
        groups: dict = {}
        for s in states:
            if s.done == "exit":
                continue
            group = groups.setdefault((s.mark, s.done), [])
            for o in group:
                if s.same(o):
                    break
            else:
                group.append(s)
                out.append(s)
        return out

    def prune(self, states: list) -> list:
        out = self.merge(states)
        if len(out) > MAX_PATHS:
            gate_seen, slim = set(), []
            for s in out:
                key = (s.done, tuple((g, s.vars[g].val.text, s.vars[g].exported)
                                     for g in G.GATES if g in s.vars))
                if key not in gate_seen:
                    gate_seen.add(key)
                    slim.append(s)
            if len(slim) > MAX_PATHS:
                self.truncated = True
                slim = slim[:MAX_PATHS]
            out = slim
        return out

    def stmt(self, st, states: list) -> list:
        kind = type(st)
        if kind is Assign:
            for s in states:
                self.assign(s, st)
            return states
        if kind is Command:
            return self.command(st, states)
        if kind is Block:
            return self.block(st, states)
        if kind is ExportNames:
            for s in states:
                for name, _, _ in st.names:
                    var = s.vars.get(name)
                    if st.negate:
                        if var is not None:
                            s.set(name, var._replace(exported=False, negated=True))
                            s.removed[name] = (st.start, st.end)
                    else:
                        s.set(name, var._replace(exported=True) if var is not None else
                              Var(UNSET, True, None))
            return states
        if kind is Unset:
            for s in states:
                for name, _, _ in st.names:
                    old = s.drop(name)
                    s.removed[name] = (st.start, st.end)
                    if old is not None and old.origin is not None:
                        self.overwrite(old.origin, st)
            return states
        if kind is SetOpt:
            for s in states:
                s.allexport = st.allexport
            return states
        if kind is If:
            return self.if_(st, states)
        if kind is Case:
            return self.case(st, states)
        if kind is AndOr:
            out = []
            after_left = self.block(st.left, states)
            for s in after_left:
                if s.done:
                    out.append(s)
                    continue
                ran = s.fork((self._at(st.op_start), st.op + "-ran"))
                skipped = s.fork((self._at(st.op_start), st.op + "-skipped"))
                out.extend(self.block(st.right, [ran]))
                out.append(skipped)
            return self.merge(out)
        if kind is Loop:
            if st.cond is not None:
                states = self.block(st.cond, states)
            if st.var and st.items is not None:
                return self.for_items(st, states)
            ran = self.block(st.body, [s.fork((self._at(st.start), "loop-ran")) for s in states if not s.done])
            skipped = [s.fork((self._at(st.start), "loop-skipped")) for s in states]
            # `break`/`continue` end an iteration, not the script
            for s in ran:
                if s.done in ("break", "continue"):
                    s.done = ""
            return self.merge(skipped + ran)
        if kind is Sub:
            return self.sub(st, states)
        if kind is FuncDef:
            if self.functions.get(st.name) is not st:
                self.fn_version += 1  # the table inert() reads changed (a definition run again did not)
            self.define((st.name, st, [s.fork() for s in states[:4]], None))
            return states
        if kind is Exit:
            for s in states:
                s.done = st.kind
            return states
        return states  # Opaque_: nothing known

    MAX_LOOP_ITEMS = 8

    def for_items(self, st: Loop, states: list) -> list:
        """for NAME in WORDS: one path per value (a few at most), as each pass sees it."""
        out, children = [], []
        for s in states:
            if s.done:
                out.append(s)
                continue
            values = []
            for w in st.items:
                values.extend(self.values(w, s))
            if any(v.kind == "unknown" for v in values) or len(values) > self.MAX_LOOP_ITEMS:
                values = [Val("unknown", via=st.var)]
            if not values:
                out.append(s.fork((self._at(st.start), "loop-skipped")))
            for v in values:
                child = s.fork((self._at(st.start), "loop-ran"))
                child.set(st.var, Var(v, child.vars.get(st.var, Var(UNSET, False, None)).exported, None))
                children.append(child)
        # one walk of the body for every pass at once: nested loops cost depth, not items**depth
        runs = self.block(st.body, self.prune(children)) if children else []
        for r in runs:
            if r.done in ("break", "continue"):
                r.done = ""
        return self.merge(out + runs)

    def if_(self, st: If, states: list) -> list:
        out = []
        pending = states
        for idx, (cond, body, kw) in enumerate(st.clauses):
            pending = self.block(cond, pending)
            taken = [s.fork((self._at(kw), "then" if idx == 0 else "elif")) for s in pending if not s.done]
            out.extend(self.block(body, taken))
            out.extend(s for s in pending if s.done)
            pending = [s for s in pending if not s.done]
        if st.otherwise is not None:
            out.extend(self.block(st.otherwise, [s.fork((self._at(st.else_start), "else")) for s in pending]))
        else:
            out.extend(s.fork((self._at(st.start), "no-branch")) for s in pending)
        return self.merge(out)

    def case(self, st: Case, states: list) -> list:
        out = []
        for pattern, body, start in st.items:
            out.extend(self.block(body, [s.fork((self._at(start), "case:" + pattern)) for s in states]))
        if not st.has_default:
            out.extend(s.fork((self._at(st.start), "case-none")) for s in states)
        return self.merge(out)

    def sub(self, st: Sub, states: list) -> list:
        if self.inert(st.body):  # `$(date +%F)`, `( cd dir && ls )`: nothing a check can see
            return states
        before = len(self.launches), self.sub_launches
        marker = len(self.gate_sites)
        children = [s.fork() for s in states]
        self.block(st.body, children)
        launched = self.sub_launches != before[1]
        if not launched:
            # gate exports made inside never reach a launch: remember them as lost
            for a, _ in islice(self.gate_sites.values(), marker, None):
                if a.exported or a.mode == "export":
                    self.lose(a, st)
                    for s in states:
                        s.lost[a.name] = (a, st)
        return states

    def lose(self, a: Assign, where) -> None:
        """An export that never reaches a launch (made in a subshell or child shell)."""
        self.lost_entry((id(a), (a, where)))

    # the tables with a log of their own: each entry goes through one of these, in the walk and
    # when restore() or resync() replay another walk's entries
    def lost_entry(self, entry: tuple) -> None:
        self.lost[entry[0]] = entry[1]
        self.lost_log.append(entry)

    def define(self, entry: tuple) -> None:
        """(name, FuncDef, the paths where it was defined, the Moves they still need)."""
        name, fdef, forks, moves = entry
        self.functions[name] = fdef
        self.def_states[name] = (forks, moves)
        self.fn_log.append(entry)

    def add_path(self, entry: tuple) -> None:
        """(launch key, a Launch with its place, one LaunchPath): the first path of a key
        records a launch like the given one."""
        key, header, path = entry
        launch = self.launches.get(key)
        if launch is None:
            launch = self.launches[key] = _launch_copy(header, 0)
        launch.paths.append(path)
        self.launch_log.append(entry)

    def call(self, fdef: FuncDef, states: list, args: Optional[list] = None) -> list:
        """Run a function body where it is called; locals and $1.. are undone on return.

        A function that calls itself (directly or through others) is not walked again inside
        its own call: the walk already sees what its body does, and a body with two calls of
        itself (a half-typed `}` makes one of any helper) would cost 2**depth walks. Past
        MAX_CALL_STEPS statements walked in the calls of one top-level statement, its further
        calls are not walked (truncated)."""
        if self.call_depth >= MAX_CALL_DEPTH or any(f is fdef for f in self.calling):
            return states
        if self.call_steps > MAX_CALL_STEPS:
            self.truncated = True
            return states
        self.calling.append(fdef)
        self.call_depth += 1
        binds = self.uses_args(fdef)
        for s in states:
            s.frames = s.frames + ({},)
            for idx in binds:
                s.save_local(str(idx))
                val = args[idx - 1] if args is not None and idx <= len(args) else None
                if val is not None:
                    s.set(str(idx), Var(val, False, None))
                elif args is not None:
                    s.set(str(idx), Var(Val("known", ""), False, None))
                else:
                    s.drop(str(idx))
        try:
            out = self.block(fdef.body, states)
        finally:
            self.call_depth -= 1
            self.calling.pop()
        for s in out:
            if s.done == "return":
                s.done = ""
            if s.frames:
                for name, old in s.frames[-1].items():
                    if old is None:
                        s.drop(name)
                    else:
                        s.set(name, old)
                s.frames = s.frames[:-1]
        return out

    _ACTIVE = G.LAUNCHERS | G.WRAPPERS | {"accelerate", "docker", "bash", "sh", "zsh", "env", "source",
                                          ".", "eval", "set", "read", "exit", "return", "break", "continue",
                                          "export", "declare", "typeset", "local", "unset", "shopt"}

    def inert(self, block: Block, depth: int = 0) -> bool:
        """True when walking block can change nothing a check sees (no assignment that matters,
        no export, exit, launch, source or call of a function that is not inert itself)."""
        key = (id(block), self.fn_version)  # a function defined later can change the answer
        cached = self.inert_cache.get(key)
        if cached is not None:
            return cached
        if depth > MAX_CALL_DEPTH:  # a long chain of calls: assume it matters (and stay shallow)
            return False
        self.inert_cache[key] = False  # recursion (a function calling itself) is not inert
        result = self.quiet([block], depth)
        self.inert_cache[key] = result
        return result

    def skippable(self, st) -> bool:
        """Whether the walk can step over one statement: an assignment or a simple command that
        cannot change anything a check sees (inert). Steps over only what changes no path: an
        if, case or && would leave its branch label on the paths that merge after it, and a
        `local` or `declare` in a function is undone on return (the paths remember it).
        Not cached: a command becomes a call once its function is defined."""
        kind = type(st)
        if kind is Assign:
            if st.mode == "local" or st.mode == "declare":
                return False
        elif kind is not Command:
            return False
        if not self.quiet([st], 0):
            return False
        if kind is Command and st.words:
            name = st.words[0].text
            if name in self.functions:
                self.called[name] = None  # as walking the call would
        return True

    def quiet(self, stack: list, depth: int) -> bool:
        """inert() for a list of statements (not cached)."""
        relevant = self.relevant
        result = True
        while stack and result:
            st = stack.pop()
            kind = type(st)
            if kind is Block:
                stack.extend(st.body)
            elif kind is Assign:
                # a gate's or a checked variable's assignment is a site the rules read
                result = relevant is not None and st.name not in relevant and st.name not in G.OTHER_VARS
                if result and (st.value is not None and st.value.effects
                               or st.array is not None and any(w.effects for w in st.array)):
                    result = False
            elif kind in (ExportNames, Unset, SetOpt, FuncDef, Exit, Opaque_):
                result = False
            elif kind is Command:
                stack.extend(st.pre)
                first = st.words[0] if st.words else None
                name = first.text if first is not None else None
                if st.prefix or name is None or _base(name) in self._ACTIVE or \
                        _base(name).startswith("python") or name in self.functions or \
                        any(w.effects for w in st.words):
                    result = name in self.functions and not st.prefix and \
                        self.inert(self.functions[name].body, depth + 1)
            elif kind in (If, Case, AndOr, Loop, Sub):
                stack.extend(_nested(st))
                if kind is Loop and st.var and (relevant is None or st.var in relevant):
                    result = False
        return result

    def uses_args(self, fdef: FuncDef) -> tuple:
        """The positional parameters a call binds: those its body reads (binding costs; most
        helpers read none, `need_dir` reads $1)."""
        cached = self.args_cache.get(id(fdef))
        if cached is None:
            cached = self.args_cache[id(fdef)] = _reads_positional(fdef.body)
        return cached

    # ------------------------------------------------------------ assignments
    def assign(self, s: State, a: Assign, value: Optional[Val] = None) -> None:
        old = s.vars.get(a.name)
        array = None
        if value is None:
            if a.array is not None:
                elems = []
                cache, foreign = self.literal_cache, self.sourced
                for w in a.array:
                    if w.text is not None:  # a literal element: its value is computed once
                        v = cache.get((id(w), foreign))
                        elems.append(v if v is not None else self.value(w, s))
                    else:
                        elems.extend(self.values(w, s))
                array = tuple(elems)
                if a.append and old is not None and old.array is not None:
                    array = old.array + array
                value = array[0] if array else Val("known", "")
            elif a.value is None:
                value = Val("known", "", lit=(a.eq_end, a.eq_end), span=(a.eq_end, a.eq_end))
            else:
                value = self.value(a.value, s)
                if a.append and old is not None:
                    value = _concat([old.val, value])
        exported = a.exported or s.allexport or (old is not None and old.exported)
        if a.mode == "local" or (a.mode == "declare" and s.frames and "g" not in a.keyword):
            s.save_local(a.name)  # local / declare in a function: undone on return
        if a.mode == "local":
            exported = exported and a.exported
        s.removed.pop(a.name, None)
        if old is not None and old.origin is not None and a.mode not in ("prefix",):
            self.overwrite(old.origin, a)
        s.set(a.name, Var(value, exported, a, array))
        if a.name in G.GATES or a.name in G.OTHER_VARS:
            self.gate_sites.setdefault(id(a), (a, value))
            if a.file is not None and self.via is not None:
                self.site_via.setdefault(id(a), self.via)

    def _at(self, offset: int) -> int:
        """Where a branch decision shows in this script: inside a sourced file, at its `source`
        command (a path label's line is read in this script)."""
        return offset if self.via is None else self.via[0]

    def overwrite(self, origin: Assign, by) -> None:
        if origin.name in G.GATES and id(origin) not in self.overwrites:
            self.overwrites[id(origin)] = (origin, by)
            if len(self.file_stack) > 1 and self.via is not None:  # `by` is in a sourced file
                self.overwrite_sites[id(by)] = (self.file_stack[-1], self.via)

    # ------------------------------------------------------------ values
    def value(self, word: Word, s: State) -> Val:
        """Evaluate a word to one value."""
        if word.text is not None:  # literal: the same value on every path, computed once
            foreign = self.sourced
            key = (id(word), foreign)
            v = self.literal_cache.get(key)
            if v is None:
                parts = word.parts
                lit = (parts[0].start, parts[0].end) if len(parts) == 1 else None
                v = Val("known", word.text, "", lit, (word.start, word.end), foreign)
                self.literal_cache[key] = v
            return v
        vals = [self.part(p, s) for p in word.parts]
        v = _concat(vals)
        return Val(v.kind, v.text, v.via, v.lit, (word.start, word.end),
                   v.foreign or self.sourced)

    def values(self, word: Word, s: State) -> list:
        """Evaluate a word that may expand to several (arrays, unquoted splitting)."""
        if word.text is not None:
            return [self.value(word, s)]
        parts = word.parts
        if len(parts) == 1 and isinstance(parts[0], Ref):
            ref = parts[0]
            var = s.vars.get(ref.name)
            if ref.array_all and ref.op == "" and var is not None and var.array is not None:
                self.mark_read(var)
                return list(var.array)
            if ref.op in (":+", "+") and ref.arg is not None:
                if var is None or var.val.kind == "unset" or (ref.op == ":+" and var.val.text == ""
                                                              and var.val.kind == "known"):
                    return []
                if var.val.kind == "unknown":
                    return [Val("unknown", via=ref.name, span=(word.start, word.end))]
                self.mark_read(var)
                return self.values(ref.arg, s)
            if not ref.quoted and word.quote == "" and ref.op == "" and var is not None:
                self.mark_read(var)
                if var.val.kind == "known" and var.array is None and any(c.isspace() for c in var.val.text):
                    return [Val("known", t, span=(word.start, word.end)) for t in var.val.text.split()]
        v = self.value(word, s)
        return [v]

    def mark_read(self, var: Var) -> None:
        origin = var.origin
        if origin is not None:
            self.read[id(origin)] = origin

    def part(self, p, s: State) -> Val:
        if isinstance(p, Lit):
            return Val("known", p.text, lit=(p.start, p.end), foreign=self.sourced)
        if isinstance(p, Opaque):
            if p.reason == "script-dir" and self.file_stack[-1]:
                return Val("known", os.path.dirname(self.file_stack[-1]))
            return Val("unknown", via=p.reason)
        return self.ref(p, s)

    def ref(self, r: Ref, s: State) -> Val:
        var = s.vars.get(r.name)
        if var is not None:
            self.mark_read(var)
        positional = bool(_POSITIONAL.match(r.name))
        if var is None and r.name == "0" and self.path:
            var = Var(Val("known", self.path), False, None)
        elif var is None and r.name == "BASH_SOURCE" and self.file_stack[-1]:
            var = Var(Val("known", self.file_stack[-1]), False, None)
        if var is not None:
            base = var.val
        elif s.container and not positional:
            base = UNSET  # a container starts from an empty environment
        else:  # the caller's environment or argument: the script cannot know it
            base = Val("unknown", via="$" + r.name if positional else r.name)
            if r.name in G.GATES and r.name not in s.removed:
                # the script consults the caller's gate: from here on it is the caller's value
                s.set(r.name, Var(Val("unknown", via=f"the caller's {r.name}"), True, None))
        op = r.op
        if op == "":
            return base
        if op == "other":
            return Val("unknown", via=r.name)
        empty_counts = op.startswith(":")
        is_set = base.kind in ("known", "default") and (base.text != "" or not empty_counts)
        if op in (":+", "+"):
            if base.kind == "unknown":
                return Val("unknown", via=base.via)
            return self.value(r.arg, s) if is_set and r.arg is not None else Val("known", "")
        # :- - := =
        alt = self.value(r.arg, s) if r.arg is not None else Val("known", "")
        if is_set:
            return base
        if base.kind == "unknown":
            if alt.kind == "known":
                result = Val("default", alt.text, via=base.via, lit=alt.lit, foreign=alt.foreign)
            elif alt.kind == "default":
                result = Val("default", alt.text, via=base.via + " or " + alt.via, lit=alt.lit,
                             foreign=alt.foreign)
            else:
                result = alt
        else:
            result = alt
        if op in (":=", "=") and var is None:
            # ${X:=d} assigns X in this shell (not exported): an assignment of its own
            self.made += 1
            a = Assign(r.start, r.end, name=r.name, name_start=r.name_start, name_end=r.name_end,
                       mode="param-default", eq_end=r.name_end, decl_start=r.start, decl_end=r.end,
                       file=self.file_stack[-1] if len(self.file_stack) > 1 else None)
            s.set(r.name, Var(result, s.allexport, a))
            if r.name in G.GATES:
                self.gate_sites.setdefault(id(a), (a, result))
                if a.file is not None and self.via is not None:
                    self.site_via.setdefault(id(a), self.via)
        return result

    # ------------------------------------------------------------ commands
    def command(self, cmd: Command, states: list) -> list:
        for sub in cmd.pre:
            states = self.stmt(sub, states)
        out = []
        for s in states:
            out.extend(self.command_in(cmd, s))
        return out

    def command_in(self, cmd: Command, s: State) -> list:
        words = cmd.words
        if not words:
            return [s]
        for w in words:
            if w.effects:  # ${X:=d} assigns, a gate read makes it the caller's: even for `echo`
                self.value(w, s)
        vals = _LazyValues(self, words, s)
        names = vals.names
        i = 0
        prefix = list(cmd.prefix)
        # wrappers and `env X=1 ...`
        while i < len(words):
            n = names[i]
            base = _base(n)
            if base in G.WRAPPERS:
                takes, operands = G.WRAPPER_SYNTAX[base]
                i += 1
                while i < len(words):
                    t = names[i]
                    if t == "--":
                        i += 1
                        break
                    if not t.startswith("-") or t == "-":
                        break
                    i += 2 if t in takes else 1  # `-N 0`; `--cpunodebind=0` and `-N0` are one word
                i += operands
                continue
            if base == "env":
                i += 1
                while i < len(words):
                    t = names[i]
                    if "=" in t and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", t):
                        prefix.append(self.word_assign(words[i], "env"))
                        i += 1
                    elif t in ("-u", "--unset") and i + 1 < len(words):
                        self.made += 1
                        prefix.append(Assign(words[i].start, words[i + 1].end, name=names[i + 1],
                                             mode="env-unset"))
                        i += 2
                    elif t.startswith("-"):
                        i += 1
                    else:
                        break
                continue
            break
        if i >= len(words):
            return [s]
        name = names[i]
        base = _base(name)
        rest = list(range(i + 1, len(words)))
        if base in ("exit",):
            s.done = "exit"
            return [s]
        if base == "return":
            s.done = "return"
            return [s]
        if base in ("break", "continue"):
            s.done = base
            return [s]
        if base == "set" and not prefix:
            for j in rest:
                t = names[j]
                if t.startswith("-") and not t.startswith("--") and "a" in t[1:] and "o" not in t[1:]:
                    s.allexport = True
                elif t.startswith("+") and "a" in t[1:] and "o" not in t[1:]:
                    s.allexport = False
                elif t in ("-o", "+o") and j + 1 < len(words) and names[j + 1] == "allexport":
                    s.allexport = t == "-o"
            return [s]
        if base in ("source", ".") and i == 0 and len(words) > 1:
            return self.source(cmd, words[1], vals[1], s)
        if base == "read":
            for j in rest:
                t = names[j]
                if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", t):
                    s.set(t, Var(Val("unknown", via="read"), s.vars.get(t, Var(UNSET, False, None)).exported, None))
            return [s]
        if base == "docker" and any(names[j] == "run" for j in rest[:2]):
            self.docker(cmd, words, vals, names, rest, s)
            return [s]
        if base in ("bash", "sh", "zsh") and not prefix:
            self.shell_c(words, names, rest, s, prefix)
            return [s]
        if base in ("bash", "sh") and prefix:
            self.shell_c(words, names, rest, s, prefix)
            return [s]
        launcher = self.launcher(words, vals, names, i, s)
        if launcher:
            self.launch(cmd, words, vals, names, i, s, prefix, launcher)
            return [s]
        if name in self.functions and not prefix:
            self.called[name] = None
            if self.inert(self.functions[name].body):  # log(), die(): nothing to walk
                return [s]
            args = []
            for w in words[i + 1:]:
                args.extend(self.values(w, s))
            return self.call(self.functions[name], [s], args)
        if name in self.functions:
            self.called[name] = None
            child = s.fork()
            for a in prefix:
                self.assign(child, a) if a.mode != "env-unset" else child.drop(a.name)
            self.call(self.functions[name], [child])
            return [s]
        return [s]

    def word_assign(self, word: Word, mode: str, text: Optional[str] = None) -> Assign:
        """An Assign for a NAME=value word (env, docker -e)."""
        lit = word.parts[0] if word.parts and isinstance(word.parts[0], Lit) else None
        raw = text if text is not None else (lit.text if lit else "")
        name = raw.split("=", 1)[0]
        base = lit.start if lit else word.start
        # the name's bytes: ASCII, so len(name) bytes
        name_end = base + len(name)
        eq_end = name_end + 1
        value_parts = []
        if lit and len(lit.text) > len(name) + 1:
            value_parts.append(Lit(lit.text[len(name) + 1:], eq_end, lit.end))
        value_parts.extend(word.parts[1:])
        value = Word(value_parts, eq_end, word.end, "", "") if value_parts else None
        self.made += 1
        a = Assign(word.start, word.end, name=name, name_start=base, name_end=name_end,
                   value=value, mode=mode, exported=True, eq_end=eq_end,
                   decl_start=word.start, decl_end=word.end)
        if name in G.GATES:
            self.extra_occ.append(Occurrence(name, base, name_end, mode))
        return a

    def launcher(self, words, vals, names, i, s: State) -> str:
        name = names[i]
        base = _base(name)
        if base in G.LAUNCHERS:
            return base
        if base == "accelerate" and i + 1 < len(names) and names[i + 1] == "launch":
            return "accelerate launch"
        first = words[i].parts[0] if words[i].parts else None
        if isinstance(first, Ref) and re.search(r"TORCHRUN|LAUNCHER|DISTRIBUTED", first.name):
            return "$" + first.name
        if base.startswith("python"):
            for j in range(i + 1, len(names)):
                t = names[j]
                if t == "-m" and j + 1 < len(names):
                    mod = names[j + 1]
                    if mod.startswith(("torch.distributed.run", "torch.distributed.launch",
                                       "aiak_training_llm")) or "train" in mod.split(".")[-1]:
                        return base + " -m " + mod
                    return ""
                if t.endswith(".py"):
                    stem = os.path.basename(t)
                    if "train" in stem or "aiak_training_llm" in t:
                        return base + " " + stem
                    return ""
                if not t.startswith("-"):
                    return ""
        return ""

    def launch(self, cmd, words, vals, names, i, s: State, prefix, launcher: str) -> None:
        if self.via is not None:  # a launch in a sourced file: shown at the `source` command
            key = self.via
            launch = self.launches.get(key) or Launch(key[0], key[1], key[0], key[1], launcher + " (sourced)")
        else:
            key = (cmd.start, cmd.end)
            launch = self.launches.get(key) or Launch(cmd.start, cmd.end, words[i].start, words[i].end, launcher)
        self.sub_launches += 1
        child = s.fork()
        prefix_sites = []
        relevant = self.relevant
        for a in prefix:
            if a.mode == "env-unset":
                child.drop(a.name)
                continue
            if relevant is not None and a.name not in relevant and a.name not in G.OTHER_VARS \
                    and not (a.value is not None and a.value.effects):
                continue  # PYTHONPATH=... torchrun: nothing a check reads
            self.assign(child, a)
            prefix_sites.append(a)
        args = []
        for w in words[i + 1:]:
            args.extend(self.values(w, child))
        self.add_path((key, launch, self.see(child, args, prefix_sites)))

    def see(self, s: State, args: list, prefix_sites: list, implicit: bool = False) -> LaunchPath:
        seen = {}
        for gate in G.GATES:
            var = s.vars.get(gate)
            lost = s.lost.get(gate)
            if var is not None and var.origin is not None:
                self.read[id(var.origin)] = var.origin
            removed = s.removed.get(gate)
            if var is None or var.val.kind == "unset":
                if s.env_file:
                    seen[gate] = Seen(Val("unknown", via="--env-file"), None, lost=lost)
                else:
                    seen[gate] = Seen(UNSET, None, lost=lost, removed=removed)
            elif var.exported:
                seen[gate] = Seen(var.val, var.origin)
            elif var.negated:
                seen[gate] = Seen(UNSET, None, removed=removed)
            else:
                seen[gate] = Seen(UNSET, None, unexported=var.origin, lost=lost)
        mbs, flag, sft, pretrain = None, None, False, False
        for idx, v in enumerate(args):
            t = v.text
            if t[:2] != "--" or (v.kind != "known" and v.kind != "default"):
                continue  # every flag looked for starts with --
            if t == G.MBS_FLAG:
                if idx + 1 < len(args):  # a flag without a value is argparse's error, not ours
                    flag = v.span
                    mbs = args[idx + 1]
            elif t.startswith(G.MBS_FLAG + "="):
                flag = v.span
                lit = (v.lit[0] + len(G.MBS_FLAG) + 1, v.lit[1]) if v.lit else None
                mbs = Val(v.kind, t[len(G.MBS_FLAG) + 1:], v.via, lit, v.span, v.foreign)
            elif t == G.PACKING_SFT:
                sft = True
            elif t == G.PACKING_PRETRAIN:
                pretrain = True
        return LaunchPath(s.labels, seen, mbs, flag, sft, pretrain, s.docker_at, s.host_exported)

    # ------------------------------------------------------------ source / .
    MAX_SOURCE_DEPTH = 8

    def source(self, cmd: Command, word: Word, val: Val, s: State) -> list:
        """Run a sourced file in this shell, when it can be found and read safely."""
        override = self.source_directive(cmd)
        where = (word.start, word.end) if self.via is None else self.via
        if override is not None:
            target = override
        elif val.kind in ("known", "default") and val.text:
            target = val.text
        else:
            self.unfollowed.append((*where, ("dynamic", val.via or "?")))
            return [s]
        if self.loader is None:  # following is off (no file location): nothing more to say
            return [s]
        if "\0" in target:
            self.unfollowed.append((*where, ("refused", "a path with a NUL byte")))
            return [s]
        written = target
        current = self.file_stack[-1]
        if not os.path.isabs(target):
            if current is None:
                self.unfollowed.append((*where, ("relative", target)))
                return [s]
            target = os.path.join(os.path.dirname(current), target)
        target = os.path.normpath(target)

        real = os.path.realpath(target)
        chain = [p for p in self.file_stack if p]
        if real in {os.path.realpath(p) for p in chain}:
            self.unfollowed.append((*where, ("cycle", " → ".join(os.path.basename(p) for p in chain + [real]))))
            return [s]
        if len(self.file_stack) > self.MAX_SOURCE_DEPTH:
            self.unfollowed.append((*where, ("depth", written)))
            return [s]
        self.dependencies.add(real)
        script = self.source_cache.get(real)
        if script is None:
            text, reason = self.loader(target)
            if text is None:
                self.unfollowed.append((*where, ("refused", f"{written}: {reason}")))
                self.source_cache[real] = False
                return [s]
            self.foreign[real] = text
            script = parse_bytes(text.encode("utf-8", "surrogatepass"), file=real)
            self.source_cache[real] = script
        elif script is False:
            return [s]
        outer_via = self.via
        if self.via is None:
            self.via = (cmd.start, cmd.end)
        self.file_stack.append(real)
        self.sourced = True
        try:
            out = self.block(script.body, [s])
        finally:
            self.file_stack.pop()
            self.sourced = len(self.file_stack) > 1
            self.via = outer_via
        for st in out:
            if st.done == "return":
                st.done = ""
        return out

    def source_directive(self, cmd: Command) -> Optional[str]:
        """The path of a `# packgate source=PATH` comment that covers this command."""
        if self.via is not None:
            return None
        for d in self.script.directives:
            if d.kind == "source" and d.values and d.scope_start <= cmd.start < d.scope_end:
                path = d.values[0]
                if not os.path.isabs(path) and self.path:
                    path = os.path.join(os.path.dirname(self.path), path)
                return path
        return None

    # ------------------------------------------------------------ child shells
    def inner_script(self, word: Word):
        key = (word.start, word.end)
        if key in self.child_cache:
            return self.child_cache[key]
        raw = self.data[word.start:word.end]
        base = word.start
        if word.quote and len(raw) >= 2:
            raw, base = raw[1:-1], word.start + 1
        script = parse_bytes(raw, base=base)
        self.child_cache[key] = script
        self.children.append(script)
        self.child_log.append(key)
        return script

    def shell_c(self, words, names, rest, s: State, prefix) -> None:
        script_word = None
        for idx, j in enumerate(rest):
            t = names[j]
            if t.startswith("-") and "c" in t[1:] and not t.startswith("--"):
                if idx + 1 < len(rest):
                    script_word = words[rest[idx + 1]]
                break
            if not t.startswith("-"):
                break
        if script_word is None or self.child_depth >= MAX_CHILD_DEPTH:
            return
        child = State({k: v for k, v in s.vars.items() if v.exported}, labels=s.labels,
                      relevant=self.relevant)
        for a in prefix:
            if a.mode != "env-unset":
                self.assign(child, a)
        self.run_child(script_word, child, parent=s)

    def run_child(self, word: Word, child: State, parent: Optional[State] = None) -> None:
        script = self.inner_script(word)
        self.child_depth += 1
        try:
            before = self.sub_launches
            marker = len(self.gate_sites)
            self.block(script.body, [child])
            if self.sub_launches == before:
                for a, _ in islice(self.gate_sites.values(), marker, None):
                    if a.exported:
                        self.made += 1
                        sub = Sub(word.start, word.end, kind="child")
                        self.lose(a, sub)
                        if parent is not None:
                            parent.lost[a.name] = (a, sub)
        finally:
            self.child_depth -= 1

    _DOCKER_VALUE_FLAGS = {
        "-v", "--volume", "--name", "-w", "--workdir", "--network", "--net", "--gpus", "--shm-size",
        "--ipc", "-u", "--user", "--entrypoint", "-p", "--publish", "--mount", "--device",
        "--runtime", "--cpus", "-m", "--memory", "--ulimit", "--label", "-l", "--hostname", "-h",
        "--add-host", "--cap-add", "--security-opt", "--pid", "--platform", "--pull", "--restart",
        "--log-driver", "--log-opt", "--tmpfs", "--group-add", "--dns",
    }

    def docker(self, cmd, words, vals, names, rest, s: State) -> None:
        run_at = next(k for k in rest if names[k] == "run")
        container = State({}, labels=s.labels, container=True, docker_at=words[run_at].end,
                          relevant=self.relevant,
                          host_exported=frozenset(k for k, v in s.vars.items() if v.exported))
        j = rest.index(run_at) + 1
        image_at = None
        while j < len(rest):
            k = rest[j]
            t = names[k]
            if t in ("-e", "--env") and j + 1 < len(rest):
                w = words[rest[j + 1]]
                spec = names[rest[j + 1]]
                self.docker_env(container, s, w, spec)
                j += 2
                continue
            if t.startswith("--env="):
                self.docker_env(container, s, words[k], t[len("--env="):], strip=len("--env="))
                j += 1
                continue
            if t.startswith("-e") and len(t) > 2 and "=" in t:
                self.docker_env(container, s, words[k], t[2:], strip=2)
                j += 1
                continue
            if t == "--env-file" or t.startswith("--env-file="):
                container.env_file = True
                j += 1 if "=" in t else 2
                continue
            if t in self._DOCKER_VALUE_FLAGS:
                j += 2
                continue
            if t.startswith("-"):
                j += 1
                continue
            image_at = j
            break
        if image_at is None:
            return
        inner = [rest[x] for x in range(image_at + 1, len(rest))]
        if not inner:
            return
        first = os.path.basename(names[inner[0]])
        if first in ("bash", "sh", "zsh"):
            script_word = None
            for idx, k in enumerate(inner[1:], start=1):
                t = names[k]
                if t.startswith("-") and "c" in t[1:]:
                    if idx + 1 < len(inner):
                        script_word = words[inner[idx + 1]]
                    break
                if not t.startswith("-"):
                    break
            if script_word is not None and self.child_depth < MAX_CHILD_DEPTH:
                self.run_child(script_word, container)
            return
        sub_cmd = Command(words[inner[0]].start, cmd.end, words=[words[k] for k in inner],
                          name_start=words[inner[0]].start, name_end=words[inner[0]].end)
        self.command_in(sub_cmd, container)

    def docker_env(self, container: State, host: State, word: Word, spec: str, strip: int = 0) -> None:
        if "=" in spec:
            if strip and word.parts and isinstance(word.parts[0], Lit):
                lit = word.parts[0]
                word = Word([Lit(lit.text[strip:], lit.start + strip, lit.end)] + word.parts[1:],
                            word.start + strip, word.end)
            a = self.word_assign(word, "docker")
            self.assign(container, a)
        else:
            var = host.vars.get(spec)
            if var is not None and var.exported:
                container.set(spec, var)
                self.mark_read(var)
            elif var is not None and var.origin is not None:
                # the host only assigned it: -e NAME passes nothing, the way a missing export does
                container.set(spec, Var(var.val, False, var.origin))
                self.mark_read(var)
            if spec in G.GATES:
                self.extra_occ.append(Occurrence(spec, word.start + strip, word.end, "docker"))


# commands whose words can reach a check: launchers, the wrappers that run one (`numactl ...
# torchrun`), and the commands that change this shell or start another
_REACHING = G.LAUNCHERS | G.WRAPPERS | {"accelerate", "docker", "bash", "sh", "zsh", "env", "source",
                                        ".", "set", "read", "eval"}


class _Summary(NamedTuple):
    """What one top-level statement gives relevant_names (remembered while the statement is
    the same object: an editor's next version takes most statements over)."""

    deps: list  # (name, names its value reads)
    values: list  # (name, words assigned)
    functions: list  # (name, FuncDef)
    commands: list
    arrays: list  # array assignments: their deps once flag-like names are known
    opaque: bool  # a source, . or eval command: names can flow where the walk cannot see


def _summarize(top) -> _Summary:
    deps, values, functions, commands, arrays = [], [], [], [], []
    opaque = False
    stack = [top]
    while stack:
        st = stack.pop()
        kind = type(st)
        if kind is Block:
            stack.extend(st.body)
        elif kind is Assign:
            words = [st.value] if st.value else st.array or []
            if st.value is None and st.array:
                arrays.append(st)
            else:
                deps.append((st.name, _word_refs(words)))
            values.append((st.name, words))
        elif kind is Command:
            commands.append(st)
            stack.extend(st.pre)
            for a in st.prefix:
                deps.append((a.name, _word_refs([a.value] if a.value else [])))
                values.append((a.name, [a.value] if a.value else []))
            first = st.words[0] if st.words else None
            if first is not None and first.text in ("source", ".", "eval"):
                opaque = True
        elif kind in (If, Case, AndOr, Loop, Sub, FuncDef):
            stack.extend(_nested(st))
            if kind is Loop and st.var:
                deps.append((st.var, _word_refs(st.items or [])))
                values.append((st.var, st.items or []))
            elif kind is FuncDef:
                functions.append((st.name, st))
    return _Summary(deps, values, functions, commands, arrays, opaque)


class RelevanceMemo:
    """relevant_names' memory from one version of a document to the next: the summary of each
    top-level statement and the launch reads of each word list, by object (kept alive here,
    so an id is never another object's)."""

    __slots__ = ("old", "new")

    def __init__(self, old: Optional["RelevanceMemo"] = None):
        self.old = old.new if old is not None else {}
        self.new: dict = {}

    def get(self, obj, make):
        hit = self.old.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = (obj, make(obj))
        self.new[id(obj)] = hit
        return hit[1]


def relevant_names(script, memo: Optional[RelevanceMemo] = None) -> Optional[frozenset]:
    """Variables whose value can reach a check: gates, and what flows into launch-like commands.

    Static and conservative: a script that sources files or uses `eval` gets None (everything
    is relevant), since names can then flow where this walk cannot see.
    """
    roots = set(G.GATES)
    deps: dict = {}
    values: dict = {}  # name -> every word assigned to it
    functions: dict = {}  # name -> its definitions
    commands = []
    arrays = []
    for top in script.body.body:
        sm = memo.get(top, _summarize) if memo is not None else _summarize(top)
        if sm.opaque:
            return None
        for name, refs in sm.deps:
            deps.setdefault(name, set()).update(refs)
        for name, words in sm.values:
            values.setdefault(name, []).extend(words)
        for name, fdef in sm.functions:
            functions.setdefault(name, []).append(fdef)
        commands.extend(sm.commands)
        arrays.extend(sm.arrays)
    flaggy = frozenset(n for n, words in values.items() if _any_lead(words, _is_flag))

    def launch_refs(words, python: Optional[bool]) -> set:
        """_launch_refs, remembered per word list and flag set (python None: an array's
        elements, read as python's arguments when any of them starts with python)."""
        def compute() -> set:
            return _launch_refs(words, flaggy, _any_lead(words, _is_python) if python is None else python)
        if memo is None:
            return compute()
        hit = memo.get(words, lambda w: {})
        key = (python, flaggy)
        refs = hit.get(key)
        if refs is None:
            hit.clear()  # one flag set at a time: another means the script changed there
            refs = hit[key] = compute()
        return refs

    for a in arrays:
        # read like a launch's words: its first element may be the command ("${CMD[@]}")
        deps.setdefault(a.name, set()).update(launch_refs(a.array, None))
    passing: dict = {}
    for cmd in commands:
        first = cmd.words[0] if cmd.words else None
        name = first.text if first is not None else None
        base = _base(name) if name is not None else None
        if name in functions:
            if _passes_args(functions[name], functions, passing):
                roots.update(_word_refs(cmd.words))
                roots.update(str(i) for i in range(10))
        elif base in G.LAUNCHERS or (base is not None and base.startswith("python")):
            roots.update(launch_refs(cmd.words, base.startswith("python")))
            roots.update(str(i) for i in range(10))
        elif name is None or base in _REACHING:
            roots.update(_word_refs(cmd.words))
            roots.update(str(i) for i in range(10))
    relevant, todo = set(), list(roots)
    while todo:
        n = todo.pop()
        if n in relevant:
            continue
        relevant.add(n)
        todo.extend(deps.get(n, ()))
    return frozenset(relevant)


_BASES: dict = {}


def _base(name: str) -> str:
    """os.path.basename of a command name, remembered (scripts repeat a few dozen names)."""
    base = _BASES.get(name)
    if base is None:
        base = os.path.basename(name)
        if len(_BASES) < 4096:
            _BASES[name] = base
    return base


def _is_flag(lead: str) -> bool:
    return lead.startswith("-")


def _is_python(lead: str) -> bool:
    return "python" in lead and (lead.startswith("python") or lead.endswith("/python"))


def _any_lead(words, test) -> bool:
    """Whether the literal text any of the words starts with passes test."""
    for w in words:
        lead = w.text
        if test(lead if lead is not None else _lead(w)):
            return True
    return False


def _lead(word) -> str:
    """The literal text a word starts with ('' when it starts with an expansion)."""
    if word is None:
        return ""
    if word.text is not None:
        return word.text
    first = word.parts[0] if word.parts else None
    return first.text if isinstance(first, Lit) else ""


def _splits(word) -> bool:
    """Whether a word can expand to other than exactly one argument: an unquoted expansion, or
    an array's every element ("${A[@]}"), at any depth (${A:+${B[@]}})."""
    stack = list(word.parts)
    while stack:
        p = stack.pop()
        if isinstance(p, Ref):
            if p.array_all or not p.quoted:
                return True
            if p.arg is not None:
                stack.extend(p.arg.parts)
        elif not isinstance(p, Lit):
            return True  # $(...), $((...)), globs: not worth proving one word
    return False


def _launch_refs(words, flaggy: set, python: bool = False) -> set:
    """The names a launch's words read that a check can see.

    The checks read the gates from the environment, and from the arguments only the
    micro-batch size (a flag and the word after it) and the packing-data switches. So a quoted
    scalar word such as "--data-path" "$DATA_PATH" contributes nothing; what can expand to flags
    (unquoted expansions, arrays, a variable assigned a flag-like value), the command word, the
    word after a micro-batch flag and, for python, the words up to the script or module (they
    decide whether it is a training launch) do.
    """
    out: set = set()
    take_next = False
    head = True
    for i, w in enumerate(words):
        lead = w.text
        if lead is not None and not python:  # a literal: reads nothing, may be the flag
            take_next = lead == G.MBS_FLAG
            continue
        refs = _word_refs([w])
        lead = _lead(w)
        take = i == 0 or take_next or head and python
        take_next = lead == G.MBS_FLAG
        if refs and not take:
            take = lead.startswith(G.MBS_FLAG) or bool(refs & flaggy) or _splits(w)
        if refs & flaggy:
            take_next = True
        if take:
            out.update(refs)
        if python and i > 0 and head and not lead.startswith("-"):
            head = False  # the script or the module after -m: taken, and the head ends
    return out


def _passes_args(defs: list, functions: dict, memo: dict, depth: int = 0) -> bool:
    """Whether calling a function can make its arguments matter to a check: its body assigns,
    exports, unsets, sets options, defines functions, launches, sources, evals, or calls a
    function that does. A helper that only prints or tests (`log`, `need_dir`) does not."""
    key = id(defs[0])
    if key in memo:
        return memo[key]
    if depth > MAX_CALL_DEPTH:
        return True
    memo[key] = True  # recursion: assume it matters
    result = False
    stack = [d.body for d in defs]
    while stack and not result:
        st = stack.pop()
        kind = type(st)
        if kind in (Assign, ExportNames, Unset, SetOpt, FuncDef, Opaque_):
            result = True
        elif kind is Command:
            stack.extend(st.pre)
            first = st.words[0] if st.words else None
            name = first.text if first is not None else None
            base = _base(name) if name is not None else None
            if st.prefix or name is None or any(w.effects for w in st.words):
                result = True
            elif name in functions:
                result = _passes_args(functions[name], functions, memo, depth + 1)
            elif base in _REACHING or base.startswith("python"):
                result = True
        else:
            stack.extend(_nested(st))
    memo[key] = result
    return result


def _nested(st) -> list:
    """The blocks a compound statement holds, for the static passes over the model."""
    kind = type(st)
    if kind is Block:
        return list(st.body)
    if kind is If:
        out = [b for cond, body, _ in st.clauses for b in (cond, body)]
        return out + ([st.otherwise] if st.otherwise is not None else [])
    if kind is Case:
        return [b for _, b, _ in st.items]
    if kind is AndOr:
        return [st.left, st.right]
    if kind is Loop:
        return [st.body] + ([st.cond] if st.cond is not None else [])
    if kind in (Sub, FuncDef):
        return [st.body]
    if kind is Command:
        return list(st.pre)
    return []


def _reads_positional(block) -> tuple:
    """The positional parameters (1..9) the words below block read: all of them when a word
    reads $@, $* or $#, or when a command can read them where these words do not show it
    (source, eval, shift, set)."""
    read: set = set()
    stack = [block]
    while stack:
        st = stack.pop()
        stack.extend(_nested(st))
        words = []
        if isinstance(st, Command):
            words = list(st.words) + [a.value for a in st.prefix if a.value]
            stack.extend(st.pre)
            if st.words and st.words[0].text in _READS_ALL_ARGS:
                return _ALL_ARGS
        elif isinstance(st, Assign):
            words = [st.value] if st.value else list(st.array or [])
        elif isinstance(st, Loop) and st.items:
            words = list(st.items)
        refs = _word_refs(words) & _POSITIONAL_NAMES
        if refs & {"@", "*", "#"}:
            return _ALL_ARGS
        read |= refs
    return tuple(i for i in range(1, 10) if str(i) in read)


_POSITIONAL_NAMES = frozenset([str(i) for i in range(1, 10)] + ["@", "*", "#"])
_ALL_ARGS = tuple(range(1, 10))
_READS_ALL_ARGS = frozenset({"source", ".", "eval", "shift", "set"})


def _word_refs(words) -> set:
    """The names the words expand (${A:-$B} expands A and B)."""
    out = set()
    for w in words:
        if w is not None:
            refs = w.refs
            if refs is None:
                refs = w.refs = _refs_of(w)  # kept on the word: an editor's next analysis reuses it
            if refs:
                out |= refs
    return out


_NO_REFS = frozenset()


def _refs_of(word) -> frozenset:
    if word.text is not None:
        return _NO_REFS
    out = set()
    stack = list(word.parts)
    while stack:
        p = stack.pop()
        if isinstance(p, Ref):
            out.add(p.name)
            if p.arg is not None:
                stack.extend(p.arg.parts)
    return frozenset(out) if out else _NO_REFS


class _LazyValues:
    """The values of a command's words, evaluated only when a check looks at them."""

    __slots__ = ("flow", "words", "state", "cache")

    def __init__(self, flow: "Flow", words: list, state: State):
        self.flow, self.words, self.state, self.cache = flow, words, state, {}

    @property
    def names(self) -> "_LazyNames":
        return _LazyNames(self)  # not kept: a back reference would make a cycle per command

    def __len__(self) -> int:
        return len(self.words)

    def __getitem__(self, i: int) -> Val:
        v = self.cache.get(i)
        if v is None:
            v = self.cache[i] = self.flow.value(self.words[i], self.state)
        return v


class _LazyNames:
    """The text of each word ('' when unknown), literal words without evaluating them."""

    __slots__ = ("vals",)

    def __init__(self, vals: _LazyValues):
        self.vals = vals

    def __len__(self) -> int:
        return len(self.vals.words)

    def __getitem__(self, i: int) -> str:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        text = self.vals.words[i].text
        if text is not None:
            return text
        v = self.vals[i]
        return v.text if v.kind != "unknown" else ""


def _concat(vals: list) -> Val:
    if not vals:
        return Val("known", "")
    if len(vals) == 1:
        return vals[0]
    kinds = {v.kind for v in vals}
    nonempty = [v for v in vals if not (v.kind == "known" and v.text == "")]
    lit = nonempty[0].lit if len(nonempty) == 1 else None
    foreign = nonempty[0].foreign if len(nonempty) == 1 else False
    if "unknown" in kinds:
        reason = next(v.via for v in vals if v.kind == "unknown")
        return Val("unknown", via=reason)
    text = "".join(v.text for v in vals)
    if "default" in kinds:
        via = next(v.via for v in vals if v.kind == "default")
        return Val("default", text, via=via, lit=lit, foreign=foreign)
    if kinds == {"unset"}:
        return UNSET
    return Val("known", text, lit=lit, foreign=foreign)


def analyze_flow(script, data: bytes, path: Optional[str] = None, loader=None,
                 resume: Optional[Resume] = None, record: bool = False,
                 edits: Optional[list] = None) -> FlowResult:
    """Run the flow analysis over a parsed script (loader reads sourced files; None: not followed).

    record: leave checkpoints in the result's `resume` for the walk of the next version (an
    editor's document); resume: those of the last walk, where they still apply; edits: the
    edits from the text of that walk to this one ((start, old end, new end), as parse_bytes).
    """
    return Flow(script, data, path, loader, resume, record, edits).run()


def _launch_copy(launch: "Launch", paths: int) -> "Launch":
    """The launch as a checkpoint saw it: its first `paths` paths (the walk after it added the others)."""
    return Launch(launch.start, launch.end, launch.name_start, launch.name_end, launch.label,
                  launch.implicit, launch.paths[:paths])
