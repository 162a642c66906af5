"""The walker's path state: one State per path through the script.

A new piece of path state is one field here. fork() copies every field (the dicts in COPIED
fresh, the others shared: they are replaced, never changed in place); two paths merge when
their variables and every field outside NOT_MERGED are equal; the incremental take-over
compares every field but those it handles itself (incremental.same_path).
"""

from __future__ import annotations

from ..records import factory, record, tuple_record
from .facts import Label, Stop, Var

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# an exit status as a path knows it: 0, non-zero (every failure is 1 here), None (unknown), or
# a Tested (unknown, but what it says about a variable is learnt where a condition forks on it)
OK, FAILED = 0, 1
MAX_FACTS = 8  # what a path remembers of tests it passed (one per variable)
# what a test that held (True) or failed (False) says of its word
_LEARNT = {("-z", True): "empty", ("-z", False): "nonempty", ("-n", True): "nonempty",
           ("-n", False): "empty", ("=", True): "eq", ("=", False): "ne", ("!=", True): "ne", ("!=", False): "eq"}


@tuple_record
class Tested:
    """The status of a test on one variable (`[ -z "$1" ]`) whose outcome the path does not know."""

    name: str
    op: str  # a TestForm's
    against: str


@tuple_record
class Fact:
    """What a path knows of a variable from a test it passed or failed."""

    name: str
    kind: str  # "empty", "nonempty", "eq" (the value is `against`), "ne"
    against: str


def decided(fact: Fact, op: str, against: str) -> Optional[bool]:
    """Whether a test (op, against) holds given fact: None when the fact does not tell."""
    kind = fact.kind
    if kind == "eq" or kind == "empty":
        value = fact.against if kind == "eq" else ""
        return (value == "") if op == "-z" else (value != "") if op == "-n" else \
            (value == against) if op == "=" else (value != against)
    if kind == "nonempty":
        return False if op == "-z" else True if op == "-n" else \
            (False if op == "=" and against == "" else True if op == "!=" and against == "" else None)
    if op in ("=", "!=") and against == fact.against:  # ne
        return op == "!="
    return None


def learnt(status: Tested, holds: bool) -> Fact:
    """What a test that held (or failed) says of its variable."""
    return Fact(status.name, _LEARNT[(status.op, holds)], status.against)


def is_known(status) -> bool:
    """Whether a status is known (OK or FAILED)."""
    return status == OK or status == FAILED

MAX_LABELS = 6  # branch decisions a path remembers (messages name the last two)

# fields fork() copies (each path changes its own); `frames` is a tuple of dicts, copied too
COPIED = ("vars", "lost", "removed")
# fields two paths may differ in and still merge: the labels (which branch, not what it did),
# where a container's state came from, and the walk's own bookkeeping
# and the facts (merged paths keep those they share: Walker.merge)
NOT_MERGED = ("vars", "labels", "container", "host_exported", "mark", "relevant", "facts")


@record
class State:
    """One path through the script.

    `vars` is only changed through set() and drop(), which keep `mark` (an order-independent
    fingerprint of the variables) current, so identical paths are found without comparing them
    variable by variable.
    """

    vars: dict
    allexport: bool = False
    labels: tuple = ()  # of Label, the last MAX_LABELS
    done: str = Stop.NONE  # a Stop: why this path stopped walking
    lost: dict = factory(dict)  # gate -> Lost: exported where it got lost
    container: bool = False
    env_file: bool = False
    frames: tuple = ()  # per active function call: {name: Var or None} to restore on return
    removed: dict = factory(dict)  # gate -> (start, end) of the unset / export -n
    docker_at: int = -1  # in a container: where `-e NAME=...` can be added to `docker run`
    cleared: bool = False  # a child shell started with an emptied environment (`env -i bash -c`)
    host_exported: frozenset = frozenset()  # in a container: names the host has exported
    mark: int = -1
    # names whose value can reach a check (None: all); paths that differ only elsewhere merge
    relevant: Optional[frozenset] = None
    status: Optional[int] = None  # of the last command: OK, FAILED or None (unknown)
    errexit: bool = False  # set -e
    nounset: bool = False  # set -u
    readonly: frozenset = frozenset()  # names a later assignment or unset cannot change
    integers: frozenset = frozenset()  # `declare -i` names: what is assigned to them is evaluated arithmetically
    assocs: frozenset = frozenset()  # `declare -A` names: their subscripts are strings, not arithmetic
    facts: tuple = ()  # of Fact, the last MAX_FACTS: dropped when their variable changes

    def __post_init__(self):
        if self.mark == -1:
            mark = 0
            for name, var in self.vars.items():
                if self.relevant is None or name in self.relevant:
                    mark ^= hash((name, id(var)))
            self.mark = mark

    def set(self, name: str, var: Var) -> None:
        """Give a variable a value."""
        if self.facts:
            self.forget(name)
        old = self.vars.get(name)
        if self.relevant is None or name in self.relevant:
            if old is not None:
                self.mark ^= hash((name, id(old)))
            self.mark ^= hash((name, id(var)))
        self.vars[name] = var

    def drop(self, name: str):
        """Remove a variable; returns what it held, or None."""
        if self.facts:
            self.forget(name)
        old = self.vars.pop(name, None)
        if old is not None and (self.relevant is None or name in self.relevant):
            self.mark ^= hash((name, id(old)))
        return old

    def forget(self, name: str) -> None:
        """Drop what tests said of a variable (it changed)."""
        for f in self.facts:
            if f.name == name:
                self.facts = tuple(f for f in self.facts if f.name != name)
                return

    def forget_all(self) -> None:
        """Drop every fact (something the walk steps over may have changed any variable)."""
        self.facts = ()

    def learn(self, status, holds: bool) -> None:
        """A condition forked on a test's status: the path where it held (or not) knows more."""
        if type(status) is Tested:
            self.forget(status.name)
            self.facts = (self.facts + (learnt(status, holds),))[-MAX_FACTS:]

    def knows(self, name: str, op: str, against: str) -> Optional[bool]:
        """Whether the facts decide a test on a variable."""
        for f in self.facts:
            if f.name == name:
                return decided(f, op, against)
        return None

    def same(self, other: "State") -> bool:
        """True when the two paths cannot lead to different findings, and share their Vars
        (their marks, the cheap look, are equal)."""
        return self.mark == other.mark and self.same_values(other)

    def same_values(self, other: "State") -> bool:
        """True when the two paths cannot lead to different findings, comparing the variables
        by value alone: paths that made equal variables apart (each ran the same assignments
        after a fork) have different marks."""
        if not _same_fields(self, other):
            return False
        if self.relevant is None:
            return self.vars == other.vars
        mine, theirs = self.vars, other.vars
        for n in self.relevant:  # a plain loop: most paths compared share their Vars
            a = mine.get(n)
            b = theirs.get(n)
            if a is not b and a != b:
                return False
        return True

    def key(self) -> tuple:
        """What same() compares, by value, as one hashable key: two paths whose variables are
        equal but were made apart (another pass of a loop) have one key, where their marks differ."""
        vars_ = self.vars
        names = sorted(vars_ if self.relevant is None else (n for n in self.relevant if n in vars_))
        return (_key_fields(self), tuple((n, vars_[n]) for n in names))

    def fork(self, label: Optional[Label] = None) -> "State":
        """A copy for another path (with one more branch decision, when given)."""
        out = _fork(self)
        if label:
            out.labels = (self.labels + (label,))[-MAX_LABELS:]
        return out

    def save_local(self, name: str) -> None:
        """Remember a variable's value before a function makes it local."""
        if self.frames and name not in self.frames[-1]:
            self.frames[-1][name] = self.vars.get(name)


def _generated(source: str, name: str):
    env: dict = {"State": State, "_new": object.__new__}
    exec(source, env)  # noqa: S102 - built below from State's own field names
    return env[name]


_FIELDS = State.__record_fields__
# same_values(): the fields two paths that merge must share, the variables aside
_same_fields = _generated(
    "def same(a, b):\n    return True" + "".join(
        f" and a.{n} == b.{n}" for n in _FIELDS if n not in NOT_MERGED) + "\n", "same")


def _hashable(v):
    """A field's value as a key: a dict (or a tuple of them: the frames) as its sorted items."""
    if type(v) is dict:
        return tuple(sorted(v.items(), key=_first))
    if type(v) is tuple and v and type(v[0]) is dict:
        return tuple(_hashable(x) for x in v)
    return v


def _first(item):
    return item[0]


_key_fields = _generated(
    "def key(a):\n    return (" + "".join(
        f"_hashable(a.{n}), " for n in _FIELDS if n not in NOT_MERGED) + ")\n", "key")
_key_fields.__globals__["_hashable"] = _hashable
# fork(): every slot set on a bare instance (the copy needs neither __init__'s defaults nor
# __post_init__'s count of `mark`, which it copies)
_fork = _generated(
    "def fork(s):\n    o = _new(State)\n" + "".join(
        f"    o.{n} = dict(s.{n})\n" if n in COPIED else "    o.frames = tuple(dict(f) for f in s.frames)\n"
        if n == "frames" else f"    o.{n} = s.{n}\n" for n in _FIELDS) + "    return o\n", "fork")
