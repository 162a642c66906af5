"""The incremental layer: an editor's next walk starts at a checkpoint of the last one, and takes
the rest over from it where the paths meet again, moved by the edit.

The walk's facts are the recorder's append-only logs (record.py); this layer wraps it: a
checkpoint keeps the paths and the length of each log, so the recorder at any checkpoint is made
from prefixes of the last walk's logs, and the rest of a walk can be taken over as the last
walk's later entries, each moved by the edit as _MOVES says.
"""

from __future__ import annotations

from itertools import islice

from ..records import factory, record, replace, tuple_record
from .facts import Launch, LaunchPath, Seen, Unfollowed, Val, Var
from .record import NAMES, TABLES, Kind, LaunchEntry, Recorder, Scalars
from .state import State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_PENDING = 16  # steps of edits a taken-over launch path's words may wait for before they are moved
CHECKPOINTS = 16  # per walk, evenly spread over the top-level statements


@tuple_record
class Moves:
    """One step of where the offsets of one version of a document are in a later one: below lo
    they stayed, from hi on they moved by delta; the edited bytes in between have no counterpart.
    A version's moves are a tuple of steps, applied in turn (see compose)."""

    lo: int
    hi: int
    delta: int


MAX_STEPS = 8  # steps a chain of moves keeps apart; a longer one is folded into one range


def moves_of(edits) -> Optional[tuple]:
    """The moves of a list of edits ((start, old end, new end), each on the text the one before
    it left), as a chain of Moves; None for none."""
    m = None
    for start, old_end, new_end in edits or ():
        m = compose(m, (Moves(start, old_end, new_end - old_end),))
    return m


def compose(a: Optional[tuple], b: Optional[tuple]) -> Optional[tuple]:
    """The chain a, then the chain b. The last step of a and the first of b become one when
    their edited ranges touch; steps apart stay apart, so that what lies between two edits far
    from each other still maps (one range over both would leave it unmapped: after typing at
    two places, a checkpoint between them could not be used)."""
    if a is None:
        return b
    if b is None:
        return a
    joined = _joined(a[-1], b[0])
    steps = a[:-1] + ((joined,) if joined is not None else (a[-1], b[0])) + b[1:]
    # a step that moves nothing (an `x` typed and deleted again) is dropped: kept, such steps
    # would fill the chain and fold it into one range over everything between them
    steps = tuple(step for step in steps if step.delta or step.lo != step.hi)
    if not steps:
        return None
    if len(steps) > MAX_STEPS:
        one = steps[0]
        for step in steps[1:]:
            one = _covering(one, step)
        steps = (one,)
    return steps


def _joined(a: Moves, b: Moves) -> Optional[Moves]:
    """a, then b, as one step when b's edited range (in a's result) touches a's new text."""
    if b.lo > a.hi + a.delta or b.hi < a.lo:
        return None
    return _covering(a, b)


def _covering(a: Moves, b: Moves) -> Moves:
    """a, then b, as one step whose unmapped range covers both edits and what lies between."""
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


class Unmapped(Exception):
    """An offset inside edited bytes: the fact that holds it does not carry over."""


class Mapper:
    """Carries the walk's facts (values, paths, launches) from one version's offsets to another's."""

    __slots__ = ("steps", "lo", "relevant", "moved", "moved_args")

    def __init__(self, moves: tuple, relevant: Optional[frozenset]):
        self.steps = moves
        self.lo = min(step.lo for step in moves)  # nothing below it moves
        self.relevant = relevant
        # id of a Var -> (that Var, it moved): the paths and checkpoints of a walk share most of
        # their Vars (a fork copies the dict, not the Vars), so each is moved once
        self.moved: dict = {}
        self.moved_args: dict = {}  # id of a launch path's words -> (those words, moved): paths share them

    def start(self, x: int) -> int:
        """A start offset, moved."""
        if x < self.lo:
            return x
        for lo, hi, delta in self.steps:
            if x < lo:
                continue
            if x < hi:
                raise Unmapped
            x += delta
        return x

    def end(self, x: int) -> int:
        """An end offset, moved."""
        if x <= self.lo:
            return x
        for lo, hi, delta in self.steps:
            if x <= lo:
                continue
            if x < hi:
                raise Unmapped
            x += delta
        return x

    def span(self, sp):
        """A (start, end) range: it must lie wholly before or wholly after each edit."""
        if sp is None:
            return None
        a, b = sp[0], sp[1]
        if b <= self.lo:
            return sp
        for lo, hi, delta in self.steps:
            if b <= lo:
                continue
            if a < hi:
                raise Unmapped
            a += delta
            b += delta
        return (a, b) + tuple(sp[2:])

    def val(self, v: Val) -> Val:
        """A value with its literal and word spans moved."""
        lit, span = v.lit, v.span
        lo = self.lo
        if (lit is None or lit[1] <= lo) and (span is None or span[1] <= lo):
            return v
        return v._replace(lit=self.span(lit), span=self.span(span))

    def var(self, v: Var) -> Var:
        """A variable with its values moved."""
        done = self.moved.get(id(v))
        if done is not None and done[0] is v:
            return done[1]
        out = self._var(v)
        self.moved[id(v)] = (v, out)
        return out

    def _var(self, v: Var) -> Var:
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
        """Variables moved (only the relevant ones: the others never reach a check)."""
        relevant = self.relevant
        return {n: (self.var(v) if v is not None and (relevant is None or n in relevant) else v)
                for n, v in vs.items()}

    def args(self, args: tuple) -> tuple:
        """A launch path's words, moved (once for the paths that share them)."""
        done = self.moved_args.get(id(args))
        if done is not None and done[0] is args:
            return done[1]
        out = tuple(self.val(v) for v in args)
        self.moved_args[id(args)] = (args, out)
        return out

    def labels(self, labels: tuple) -> tuple:
        """Branch decisions moved."""
        return tuple(label._replace(at=self.start(label.at)) for label in labels)

    def state(self, s: State) -> State:
        """A copy of a path with its relevant values, labels and ranges moved (the other
        variables never reach a check: they are kept as they are)."""
        fields = {n: getattr(s, n) for n in State.__record_fields__}
        fields.update(vars=self.vars(s.vars), labels=self.labels(s.labels), lost=dict(s.lost),
                      frames=tuple(self.vars(f) for f in s.frames),
                      removed={g: self.span(sp) for g, sp in s.removed.items()},
                      docker_at=self.end(s.docker_at) if s.docker_at >= 0 else -1, mark=-1)
        return State(**fields)

    def seen(self, x: Seen) -> Seen:
        """What a launch sees of a gate, moved."""
        dropped = x.dropped
        if dropped is not None:
            start, end = self.span((dropped.start, dropped.end))
            dropped = dropped._replace(start=start, end=end)
        return Seen(self.val(x.val), x.origin, x.unexported, x.lost, self.span(x.removed), dropped)

    def path(self, p: LaunchPath) -> LaunchPath:
        """One path to a launch, moved."""
        return LaunchPath(self.labels(p.labels), {g: self.seen(x) for g, x in p.gates.items()},
                          self.val(p.mbs) if p.mbs is not None else None, self.span(p.mbs_flag), p.sft,
                          p.pretrain, self.end(p.docker_at) if p.docker_at >= 0 else -1, p.host_exported,
                          p.raw_args, p.raw_vars, p.cleared, p.env_file,
                          {n: self.span(sp) for n, sp in p.removed.items()}, self.later(p))

    def later(self, p: LaunchPath) -> "Pending":
        """p's pending moves and this mapper's: its words and variables are moved when
        something reads them (most keystrokes' checks read none), by the edits since composed
        into one chain; a chain grown past _PENDING steps (edits far apart) is applied first."""
        before = p.pending
        if before is not None and len(before.moves) > _PENDING:
            p.settle()
            before = None
        chain = compose(before.moves if before is not None else None, self.steps)
        # edits that cancel out (an `x` typed and deleted) compose to nothing: nothing to move
        return Pending(chain, self.relevant) if chain else None

    def settled_args(self, args: tuple) -> tuple:
        """args moved; a word inside edited bytes keeps its text without a place (a check
        reading it late cannot fall back to walking again, as the walk itself does)."""
        try:
            return self.args(args)
        except Unmapped:
            return tuple(self._placeless(v) for v in args)

    def settled_vars(self, vs: dict) -> dict:
        """vs moved, as settled_args."""
        try:
            return self.vars(vs)
        except Unmapped:
            out = {}
            for n, v in vs.items():
                try:
                    out[n] = self.var(v) if v is not None else v
                except Unmapped:
                    out[n] = v._replace(val=v.val._replace(lit=None, span=None), array=None if v.array is None else
                                        tuple(x._replace(lit=None, span=None) for x in v.array))
            return out

    def _placeless(self, v: Val) -> Val:
        try:
            return self.val(v)
        except Unmapped:
            return v._replace(lit=None, span=None)

    def launch(self, launch: Launch) -> Launch:
        """The launch's header (where it is), without its paths."""
        start, end = self.span((launch.start, launch.end))
        name_start, name_end = self.span((launch.name_start, launch.name_end))
        return Launch(start, end, name_start, name_end, launch.label, launch.implicit, command=launch.command)


@tuple_record
class Pending:
    """The edits a taken-over launch path's words and variables still need (LaunchPath.pending)."""

    moves: tuple
    relevant: Optional[frozenset]

    def __call__(self, args: tuple, vs: dict) -> tuple:
        """(args, vs) moved to this version's offsets."""
        mapper = Mapper(self.moves, self.relevant)
        return mapper.settled_args(args), mapper.settled_vars(vs)


def moved_states(states: list, mapper: Optional[Mapper]) -> list:
    """Copies of paths recorded at another version's offsets, moved to this one's by mapper (None:
    they need no moving; raises Unmapped when one points into edited bytes)."""
    if mapper is None:
        return [s.fork() for s in states]
    return [mapper.state(s) for s in states]


# State fields same_path compares itself (the others it compares with ==)
_COMPARED_APART = ("vars", "frames", "lost", "mark", "relevant")


def same_path(new: State, old: State, relevant: Optional[frozenset]) -> bool:
    """Whether two paths (old already moved to new's offsets) lead to the same walk from here:
    the same relevant values from the same assignments, labels, flags and lost exports."""
    if any(getattr(new, n) != getattr(old, n) for n in _PLAIN_FIELDS) or len(new.frames) != len(old.frames):
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
                    or a.negated != b.negated or a.val != b.val or a.array != b.array or a.from_caller != b.from_caller:
                return False
    return True


_PLAIN_FIELDS = tuple(n for n in State.__record_fields__ if n not in _COMPARED_APART)


def may_be_same_path(new: State, old: State, relevant: Optional[frozenset]) -> bool:
    """same_path's test of what moving never changes (old not moved yet): the relevant
    variables' assignments, flags and kinds of value, whether the path stopped, its status.
    False proves the paths differ; it is a cheap first look (most paths after an edit differ
    in a variable the edited statement assigned, whose moving would fail on the edited bytes)."""
    return path_difference(new, old, relevant) is None


def path_difference(new: State, old: State, relevant: Optional[frozenset], first: tuple = ()):
    """What may_be_same_path finds apart in two paths: the name of a variable, True for the
    path's own flags, None when they may be the same. first: names compared before the others
    (a walk's later tries meet the variable the edit assigned again and again)."""
    if new.done != old.done or new.status != old.status or len(new.frames) != len(old.frames):
        return True
    mine, theirs = new.vars, old.vars
    for names in (first, (mine.keys() | theirs.keys()) if relevant is None else relevant):
        for n in names:
            a, b = mine.get(n), theirs.get(n)
            if a is b:
                continue
            if a is None or b is None or a.origin is not b.origin or a.exported != b.exported \
                    or a.negated != b.negated or a.val.kind != b.val.kind or (a.array is None) != (b.array is None):
                return n
    return None


@record
class Checkpoint:
    """The walk between two top-level statements: copies of its paths, and how long each of its
    logs was. Taken only while no file has been sourced (a sourced file can change on disk
    without the script changing)."""

    index: int  # top-level statements walked before it
    states: list
    lens: tuple  # len() of each of TABLES
    scalars: Scalars
    # the offsets in `states` are those of an earlier version of the document: map them first
    moves: Optional[tuple] = None  # a chain of Moves


@record
class Resume:
    """What a walk leaves for the walk of the next version of the same document.

    A later walk whose first top-level statements are the very same objects at the same offsets
    (the parser took them over unmoved), and whose relevant names and path are the same, starts
    at the last checkpoint inside that common prefix instead of at the top. Past the edit, when
    it reaches a checkpoint of this walk with the same paths and nothing else that can make the
    rest of the walk differ, it takes the rest from here (moved by the edit) instead of walking
    it: see Incremental.resync."""

    body: list
    starts: list  # where each statement of body started (the parser moves statements in place)
    relevant: Optional[frozenset]
    path: Optional[str]
    points: list
    logs: Optional[tuple] = None  # the walk's logs (TABLES), valid up to end.lens
    end: Optional[Checkpoint] = None  # the walk after the last top-level statement
    sourced: bool = False  # a file was sourced: nothing after it is taken over
    memo: object = None  # relevance.RelevanceMemo: relevant_names' memory
    library: list = factory(list)  # library.LibraryRun of each function judged where defined


def _moved_unfollowed(m: Mapper, moves, u: Unfollowed) -> Unfollowed:
    start, end = m.span((u.start, u.end))
    return Unfollowed(start, end, u.reason)


# how an entry of a recorder log moves with an edit (Mapper, the edit's Moves, entry) -> entry;
# a log not named here keeps its entries as they are
_MOVES = {
    "gate_sites": lambda m, moves, e: (e[0], e[1]._replace(val=m.val(e[1].val))),
    "fn_log": lambda m, moves, e: e._replace(moves=compose(e.moves, moves)),
    "launch_log": lambda m, moves, e: LaunchEntry(m.span(e.key), m.launch(e.header), m.path(e.path)),
    "extra_occ": lambda m, moves, o: replace(o, start=m.start(o.start), end=m.end(o.end)),
    "unfollowed": _moved_unfollowed,
}


class Incremental:
    """Checkpoints, the start from one and the take-over of the rest: wraps the walk's recorder
    (it reads the recorder's logs, restores them from a checkpoint and appends the last walk's
    moved entries) and calls the walker's step() for the top-level statements."""

    def __init__(self, inp, rec: Recorder, where, walker, sourcing, resume: Optional[Resume],
                 moves: Optional[tuple]) -> None:
        self.inp, self.rec, self.where, self.walker, self.sourcing = inp, rec, where, walker, sourcing
        self.resume_from = resume
        self.moves = moves  # from the version `resume` was walked on to this one
        self.mappers: dict = {}  # Moves -> its Mapper (mapper())
        self.end: Optional[Checkpoint] = None
        self.resynced = 0  # the top-level statement where the rest was taken over (0: none)
        self.apart: tuple = ()  # the variable where the last try to take over found the paths apart: the next looks there first

    def mapper(self, moves: Optional[tuple]) -> Optional[Mapper]:
        """The Mapper of moves for this walk's relevant names (one per Moves: its memory of
        moved Vars serves every path moved the same way); None for no moves."""
        if moves is None:
            return None
        mapper = self.mappers.get(moves)
        if mapper is None:
            mapper = self.mappers[moves] = Mapper(moves, self.inp.relevant)
        return mapper

    def start(self) -> tuple:
        """The paths to start the top-level walk with, the checkpoints still valid, and how
        many top-level statements they cover."""
        fresh = [State({}, relevant=self.inp.relevant, errexit=self.inp.errexit_at_start)]
        r = self.resume_from
        if r is None or r.logs is None or r.relevant != self.inp.relevant or r.path != self.inp.path or not r.points:
            return fresh, [], 0
        body, old, starts = self.inp.script.body.body, r.body, r.starts
        same, limit = 0, min(len(body), len(old))
        while same < limit and body[same] is old[same] and body[same].start == starts[same]:
            same += 1
        points = [p for p in r.points if p.index <= same]
        if not points:
            return fresh, [], 0
        p = points[-1]
        try:
            states = moved_states(p.states, self.mapper(p.moves))
        except Unmapped:
            return fresh, [], 0
        self.rec.restore(r.logs, p.lens)
        self.rec.set_scalars(p.scalars)
        return states, points, p.index

    def candidates(self, body: list, first: int) -> dict:
        """The last walk's checkpoints where this walk may take the rest from it: inside the
        common tail of the two bodies (the same statement objects, moved by the edit), past
        where this walk started. New index -> Checkpoint."""
        r = self.resume_from
        if r is None or r.logs is None or r.end is None or r.sourced or r.relevant != self.inp.relevant \
                or r.path != self.inp.path:
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
            mapper = Mapper(self.moves, None) if self.moves is not None else None
            for p in r.points:
                j = p.index + shift
                if lowest <= j < len(body) and p.index < len(old):
                    was = r.starts[p.index]
                    if (mapper.start(was) if mapper else was) == body[j].start:
                        out[j] = p
        except Unmapped:
            return {}
        return out

    def top(self, body: list, first: int, states: list, points: list) -> list:
        """The top-level walk: block() over the script's statements from index first on,
        taking checkpoints on the way when asked to, and taking the rest from the last walk
        where its paths meet this one's again."""
        step = max(4, len(body) // CHECKPOINTS)
        cands = self.candidates(body, first) if self.inp.record else {}
        for i in range(first, len(body)):
            if self.inp.record and i > first and i % step == 0 and not self.rec.dependencies \
                    and not self.sourcing.source_cache:
                points.append(self.checkpoint(i, states))
            if i in cands and not self.rec.dependencies and not self.sourcing.source_cache \
                    and self.resync(cands[i], i, states, points):
                return states
            self.where.call_steps = 0
            after = self.walker.step(body[i], states)
            if after is None:
                break
            states = after
        return states

    def checkpoint(self, index: int, states: list) -> Checkpoint:
        """The walk now, before top-level statement index."""
        return Checkpoint(index, [st.fork() for st in states], self.rec.lens(), self.rec.scalars())

    def resync(self, p: Checkpoint, j: int, states: list, points: list) -> bool:
        """At statement j, the last walk's checkpoint p (same statement, moved): when the paths
        are the same and nothing the rest of the walk reads differs, the rest of the walk would
        be the last walk's, moved by the edit. Take it: append the last walk's log entries after
        p (moved), and its later checkpoints. False (nothing changed) when anything differs."""
        # the cheap looks first: at what moving never changes, then at what the rest of the
        # walk reads (an edited function it calls fails there); moving the paths costs the most
        if not self.may_be_same(p, states) or not self.same_reads(p) or not self.same_paths(p, states):
            return False
        rest = self.moved_rest(p)
        if rest is None:
            return False
        self.take_over(p, j, rest, points)
        return True

    def may_be_same(self, p: Checkpoint, states: list) -> bool:
        """same_paths' first look, at what moving never changes (may_be_same_path): False proves
        the paths differ."""
        if len(states) != len(p.states):
            return False
        relevant = self.inp.relevant
        for a, b in zip(states, p.states):
            apart = path_difference(a, b, relevant, self.apart)
            if apart is not None:
                if apart is not True:
                    self.apart = (apart,)
                return False
        return True

    def same_paths(self, p: Checkpoint, states: list) -> bool:
        """This walk's paths are p's, moved."""
        return self.same_states(states, None, p.states, compose(p.moves, self.moves))

    def same_states(self, mine: list, my_moves: Optional[tuple], theirs: list,
                    their_moves: Optional[tuple]) -> bool:
        """Whether two lists of paths, each moved to this version's offsets by its Moves, lead to
        the same walk (same_path, pair by pair); a cheap look first at what moving never changes."""
        relevant = self.inp.relevant
        if len(mine) != len(theirs) or not all(may_be_same_path(a, b, relevant) for a, b in zip(mine, theirs)):
            return False
        try:
            here, there = self.mapper(my_moves), self.mapper(their_moves)
            for a, b in zip(mine, theirs):
                if not same_path(here.state(a) if here else a, there.state(b) if there else b, relevant):
                    return False
        except Unmapped:
            return False
        return True

    def same_reads(self, p: Checkpoint) -> bool:
        """Nothing the rest of the walk reads differs from the last walk's at p, and nothing it
        made needs more than moving."""
        r, end = self.resume_from, self.resume_from.end
        if self.rec.truncated != p.scalars.truncated or self.rec.made != p.scalars.made \
                or end.scalars.made != p.scalars.made:
            return False
        at, upto = dict(zip(NAMES, p.lens)), dict(zip(NAMES, end.lens))
        old = dict(zip(NAMES, r.logs))
        if any(upto[t.name] != at[t.name] for t in TABLES if not t.taken_over):
            return False
        functions = {e.name: e.fdef for e in islice(old["fn_log"], at["fn_log"])}
        if functions.keys() != self.rec.functions.keys():
            return False
        changed = {n for n in functions if functions[n] is not self.rec.functions[n]}
        if changed and not changed.isdisjoint(islice(old["looked_up"], at["looked_up"], upto["looked_up"])):
            return False  # a function defined otherwise here, and the rest of the walk used it
        if any(n not in self.rec.called for n in islice(old["called"], at["called"])):
            return False  # the last walk called a function before p that this one did not
        later_fns = [e.fdef for e in islice(old["fn_log"], at["fn_log"], upto["fn_log"])]
        bodies = [f for n, f in self.rec.functions.items() if n not in changed] + later_fns
        for name, mine in (("gate_sites", self.rec.gate_sites), ("overwrites", self.rec.overwrites)):
            before = dict(islice(old[name].items(), at[name]))
            if before.keys() != mine.keys():
                # an assignment seen before p by one walk only: fine unless the rest of the
                # walk can run it again (it sits in a function)
                differ = [v[0] for k, v in before.items() if k not in mine] + \
                         [v[0] for k, v in mine.items() if k not in before]
                if any(f.start <= a.start < f.end for a in differ for f in bodies):
                    return False
        unsure = [k for k in islice(old["read"], at["read"]) if k not in self.rec.read]
        if unsure:
            # read before p by the last walk only: the rest may read it again or not, which
            # decides only whether an overwritten gate assignment was read
            final = set(self.rec.overwrites)
            final.update(islice(old["overwrites"], at["overwrites"], upto["overwrites"]))
            if any(k in final for k in unsure):
                return False
        return True

    def moved_rest(self, p: Checkpoint) -> Optional[dict]:
        """The last walk's log entries after p, moved by the edit (table name -> entries), or
        None when one points into the edited bytes. Built before anything is appended."""
        end, moves = self.resume_from.end, self.moves
        try:
            rest = dict(zip(NAMES, self.moved_entries(p.lens, end.lens)))
            called = set(self.rec.called)
            called.update(name for name, _ in rest["called"])
            for e in rest["fn_log"]:
                if e.name not in called:  # judged where defined: check they move
                    moved_states(e.forks, self.mapper(compose(e.moves, moves)))
            if not self.rec.launches and not rest["launch_log"]:
                moved_states(end.states, self.mapper(compose(end.moves, moves)))
        except Unmapped:
            return None
        return rest

    def moved_entries(self, start: tuple, stop: tuple) -> list:
        """The last walk's entries of each log between two of its lengths (TABLES order), moved by
        the edit (raises Unmapped when one points into the edited bytes)."""
        mapper, moves = self.mapper(self.moves), self.moves
        out = []
        for t, old, a, b in zip(TABLES, self.resume_from.logs, start, stop):
            rows = islice(old.items(), a, b) if t.kind is Kind.DICT else islice(old, a, b)
            move = _MOVES.get(t.name)
            out.append([move(mapper, moves, e) for e in rows] if mapper is not None and move is not None
                       else list(rows))
        return out

    def take_over(self, p: Checkpoint, j: int, rest: dict, points: list) -> None:
        """Append the moved rest of the last walk after p (this walk is at statement j), noting
        where each later checkpoint falls in this walk's logs."""
        r, end, moves = self.resume_from, self.resume_from.end, self.moves
        later = [q for q in r.points if q.index > p.index]
        cuts = [dict() for _ in later]
        for k, (t, a, log, put) in enumerate(zip(TABLES, p.lens, self.rec.logs(), self.rec.putters())):
            position = a
            for entry in [None] + rest[t.name]:
                if entry is not None:
                    put(entry)
                    position += 1
                for q, cut in zip(later, cuts):
                    if q.lens[k] == position:
                        cut[t.name] = len(log)
        shift = j - p.index
        base = p.scalars
        subs, fns_before = self.rec.sub_launches, self.rec.fn_version
        for q, cut in zip(later, cuts):
            qs = q.scalars
            points.append(Checkpoint(q.index + shift, q.states, tuple(cut[n] for n in NAMES),
                                     Scalars(qs.truncated, subs + qs.sub_launches - base.sub_launches, qs.made,
                                             fns_before + qs.fn_version - base.fn_version),
                                     compose(q.moves, moves)))
        self.rec.truncated = end.scalars.truncated
        self.rec.sub_launches = subs + end.scalars.sub_launches - base.sub_launches
        self.rec.fn_version = fns_before + end.scalars.fn_version - base.fn_version
        self.end = Checkpoint(len(self.inp.script.body.body), end.states, self.rec.lens(), self.rec.scalars(),
                              compose(end.moves, moves))
        self.resynced = j
