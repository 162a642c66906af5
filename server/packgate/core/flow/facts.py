"""The typed facts the flow walk leaves for the rules: values, variables, what a launch sees on
each path, the sites, labels and records of FlowResult.

The enums are `str`-valued (ValKind.KNOWN == "known"): they print and format as their text;
the rules compare them as members.
Val, Var, Label and the FlowResult entries are named tuples (records.tuple_record): cheap to
create and compare (the
walk makes many), and they unpack like the tuples they replace (`for a, val in gate_sites`).
"""

from __future__ import annotations

from ..parse.model import Assign, Stmt, Sub, TextEnum
from ..records import factory, record, tuple_record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


class ValKind(TextEnum):
    """How much the script knows of a value."""

    KNOWN = "known"  # text is the value
    DEFAULT = "default"  # text, unless the caller sets `name` (Val.origin; `via` shows who)
    UNKNOWN = "unknown"  # the script cannot know; `origin` says why, `via` shows it
    UNSET = "unset"


class Origin(TextEnum):
    """Where a value comes from: what the rules read (`Val.via` only shows it)."""

    LITERAL = "literal"  # the script's own text (or what it computed from it): the default
    CALLER = "caller"  # the caller's environment variable `name`, as it came (empty when unset)
    ARGUMENT = "argument"  # the positional parameter `name` ("1", "2"...), as it came
    DEFAULT = "default"  # a default of the script's, which the caller's `name` may override
    INHERITED = "inherited"  # a variable the script read from its caller, set or unset as it came
    UNKNOWN = "unknown"  # a command's output, `read`, `eval`, a mix of several: nobody to name
    NAMEREF = "nameref"  # the variable is a reference (`declare -n`) to the one `text` names


class Stop(TextEnum):
    """Why a path stopped walking (NONE: it goes on); falsy only for NONE."""

    NONE = ""
    EXIT = "exit"
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"


class LabelKind(TextEnum):
    """Which branch decision a path remembers (a CASE or TEST label carries its details)."""

    THEN = "then"
    ELIF = "elif"
    ELSE = "else"
    NO_BRANCH = "no-branch"
    CASE = "case"
    CASE_NONE = "case-none"
    TEST = "test"
    LOOP_RAN = "loop-ran"
    LOOP_SKIPPED = "loop-skipped"
    AND_RAN = "&&-ran"
    AND_SKIPPED = "&&-skipped"
    OR_RAN = "||-ran"
    OR_SKIPPED = "||-skipped"


_AND_OR = {("&&", True): LabelKind.AND_RAN, ("&&", False): LabelKind.AND_SKIPPED,
           ("||", True): LabelKind.OR_RAN, ("||", False): LabelKind.OR_SKIPPED}


def and_or_label(op: str, ran: bool) -> LabelKind:
    """The label of `&&` / `||` whose right side ran (or did not)."""
    return _AND_OR[(op, ran)]


@tuple_record
class Label:
    """One branch decision on a path: where it was taken and which (all fields plain text,
    so labels hash and order as paths are compared and merged)."""

    at: int  # byte offset shown in messages (a sourced file's: its `source` command)
    kind: LabelKind
    pattern: str = ""  # CASE: the arm's pattern as written
    subject: str = ""  # CASE: the case's subject as written ("" when it has none to show)
    name: str = ""  # TEST: the variable the test decided
    said: str = ""  # TEST: what it said of it, a state.Fact's kind ("empty", "nonempty", "eq", "ne")
    against: str = ""  # TEST: the literal of "eq" / "ne"

    @property
    def key(self) -> str:
        """The decision as one short text, for logs and test reports (never parsed back)."""
        if self.kind == LabelKind.CASE:
            return f"case:{self.pattern}" + (f" ({self.subject})" if self.subject else "")
        if self.kind == LabelKind.TEST:
            return f"test:{self.said}:{self.name}:{self.against}"
        return str(self.kind)


@tuple_record
class Val:
    """A value as far as the script can tell (see ValKind)."""

    kind: ValKind
    text: str = ""
    via: str = ""
    lit: Optional[tuple] = None  # byte span of the literal that decides the value
    span: Optional[tuple] = None  # byte span of the word it came from
    foreign: bool = False  # lit / span are offsets in a sourced file, not in this document
    origin: Origin = Origin.LITERAL
    name: str = ""  # CALLER, ARGUMENT, INHERITED, DEFAULT: the variable or the parameter's number
    required: bool = False  # CALLER, ARGUMENT: expanded under set -u, so a path that goes on had it set
    prefix: str = ""  # UNKNOWN: the literal text it starts with (`--micro-batch-size=$1`)


UNSET = Val(ValKind.UNSET)
# a gate after an input no static reading can see (an unfollowed `source`, `export "$k=$v"`):
# PG009 reports the input, so nothing else need say the gate is unknown
UNREAD = Val(ValKind.UNKNOWN, via="a file packgate could not read", origin=Origin.UNKNOWN)
# a gate after an assignment to a name made at run time (`read "$k"`): any gate may be the one
NAMED = Val(ValKind.UNKNOWN, via="a name made at run time", origin=Origin.UNKNOWN)
_new_tuple = tuple.__new__
_KNOWN, _LITERAL = ValKind.KNOWN, Origin.LITERAL


# The walk makes a Val for every literal word it evaluates and for every word an expansion
# gives a value (thousands on a long launcher). Calling the class runs the named tuple's
# __new__, a Python function entered from C, a third of the cost; these two make the same Val
# from all of its fields.
def literal_val(text: str, lit: Optional[tuple], span: tuple, foreign: bool) -> Val:
    """Val(ValKind.KNOWN, text, lit=lit, span=span, foreign=foreign): a text the script spells."""
    return _new_tuple(Val, (_KNOWN, text, "", lit, span, foreign, _LITERAL, "", False, ""))


def spanned(v: Val, span: tuple, foreign: bool) -> Val:
    """v given by the word at span: v._replace(span=span, foreign=foreign)."""
    kind, text, via, lit, _, _, origin, name, required, prefix = v
    return _new_tuple(Val, (kind, text, via, lit, span, foreign, origin, name, required, prefix))


@tuple_record
class Var:
    """A shell variable in one state."""

    val: Val
    exported: bool
    origin: Optional[Assign]
    array: Optional[tuple] = None
    negated: bool = False  # `export -n`: the trainer does not see it, deliberately
    keys: Optional[tuple] = None  # an array's subscripts, one per element (None: 0, 1, 2...)
    # the caller's gate, read: exported when the caller set it, which an assignment to it does
    # not carry over (as for a gate the script never read, packgate does not assume the caller
    # exported it); `export NAME` makes the mark the script's own
    from_caller: bool = False


def keeps_export(var: Optional[Var]) -> bool:
    """Whether an assignment to var's name is exported because var is (see Var.from_caller)."""
    return var is not None and var.exported and not var.from_caller


NO_VAR = Var(UNSET, False, None)  # a name no path has set (what `.get(name, NO_VAR)` reads)


@tuple_record
class GateSite:
    """An assignment of a gate (or another checked variable) that ran, and the value it gave."""

    assign: Assign
    val: Val


@tuple_record
class Overwrite:
    """A gate assignment, or an exported variable's, replaced (or unset) by a later statement."""

    assign: Assign
    by: Stmt  # an Assign, or the statement that unset it (`unset`, a command reaching `unset`)


@tuple_record
class Lost:
    """An export made where no launch can see it (a subshell, a child shell)."""

    assign: Assign
    sub: Sub


class UnfollowedKind(TextEnum):
    """Why a `source` / `.` was not followed."""

    DYNAMIC = "dynamic"
    REFUSED = "refused"
    RELATIVE = "relative"
    CYCLE = "cycle"
    DEPTH = "depth"
    PROCESS = "process"  # `source <(curl ...)`: a command's output
    WRITTEN = "written"  # the script writes the file itself before it sources it
    COMPUTED = "computed"  # `export "$k=$v"`, `export $(...)`: names made from what the script reads
    ASSIGNED = "assigned"  # `read "$k"`, `printf -v "$k"`, `declare "$k=$v"`: the same, not exported
    UNSET = "unset"  # `unset "$k"`: a name made at run time unset
    LOCAL = "local"  # `local "$k=$v"` in a function: the same, until the function returns


@tuple_record
class Reason:
    kind: UnfollowedKind
    detail: str


@tuple_record
class Unfollowed:
    """A source command the walk did not follow, and why."""

    start: int
    end: int
    reason: Reason


@tuple_record
class Dropped:
    """A gate this shell exported that a wrapper's own rules keep from the launch (sudo's
    env_reset, srun --export, the ranks on other nodes of mpirun or deepspeed): the assignment
    the launch would have seen, which wrapper (an environ.Cause's text) and its word's span;
    certain False: only if something packgate cannot read says so (a hostfile's hosts, a
    .deepspeed_env it cannot locate), and the launch's value is then what it would be."""

    assign: Optional[Assign]
    cause: str
    start: int
    end: int
    certain: bool = True


@record(frozen=True)
class Seen:
    """What a launch sees of one gate on one path."""

    val: Val  # UNSET when absent
    origin: Optional[Assign]  # the assignment that set the value the launch sees
    unexported: Optional[Assign] = None  # set in the script but never exported
    lost: Optional[Lost] = None  # exported where the launch cannot see it
    removed: Optional[tuple] = None  # (start, end) of the unset / export -n that removed it
    dropped: Optional[Dropped] = None  # exported, but a wrapper's rules keep it from the launch


@record(eq=True)
class LaunchPath:
    """One path reaching a launch."""

    labels: tuple  # of Label
    gates: dict  # gate name -> Seen
    mbs: Optional[Val]  # the value after --micro-batch-size, None when absent
    mbs_flag: Optional[tuple]  # span of the flag word
    sft: bool
    pretrain: bool
    docker_at: int = -1  # the launch runs in a container started by `docker run` (insert point)
    host_exported: frozenset = frozenset()
    # what the launched program is given: its words after the launcher's name (Vals, a word
    # that splits gives several), and the path's variables with its prefix applied (name ->
    # Var: `exported` says whether the launch sees it); not compared, the fields above decide.
    # Read them as `args` and `vars`: a path an editor's walk took over from the last version
    # moves their offsets only when something reads them (`pending`, see settle()).
    raw_args: tuple = factory(tuple, compare=False)
    raw_vars: dict = factory(dict, compare=False)
    cleared: bool = False  # `env -i`: a name the script does not give is not the caller's either
    env_file: bool = False  # `docker run --env-file`: any name may come from a file
    # name -> (start, end) of the `unset` / `export -n` / `env -u` that removed it on this path
    removed: dict = factory(dict, compare=False)
    # what still moves raw_args and raw_vars to this version's offsets: (args, vars) -> (args,
    # vars), incremental.Pending (the edits since they were recorded), or None
    pending: object = factory(lambda: None, compare=False)

    @property
    def args(self) -> tuple:
        """The words, at this version's offsets."""
        if self.pending is not None:
            self.settle()
        return self.raw_args

    @property
    def vars(self) -> dict:
        """The variables, at this version's offsets."""
        if self.pending is not None:
            self.settle()
        return self.raw_vars

    def settle(self) -> None:
        """Move the words and variables by the edits since they were recorded."""
        move, self.pending = self.pending, None
        self.raw_args, self.raw_vars = move(self.raw_args, self.raw_vars)

    def var(self, name: str) -> Optional[Var]:
        """The variable as the path left it (None: the script never gave it on this path)."""
        return self.vars.get(name)

    def exported(self, moved: bool = True) -> dict:
        """name -> Var for every variable the launch sees from the script (exported, not `export -n`,
        not an array: bash never puts one in the environment); moved=False: their texts and kinds
        only matter, the offsets may be an earlier version's."""
        found = self.vars if moved else self.raw_vars
        return {n: v for n, v in found.items()
                if v is not None and v.exported and not v.negated and v.array is None}


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
    command: str = ""  # the launcher's word as written (`torchrun`, `/usr/bin/python3`), "" when implicit

    def header(self, paths: int = 0) -> "Launch":
        """This launch with only its first `paths` paths (as a checkpoint saw it)."""
        return Launch(self.start, self.end, self.name_start, self.name_end, self.label,
                      self.implicit, self.paths[:paths], self.command)


@record(eq=True)
class FlowResult:
    """Everything the rules need."""

    launches: list
    gate_sites: list  # of GateSite
    overwritten: list  # of Overwrite
    lost: list  # of Lost
    extra_occurrences: list
    children: list  # parsed Scripts of `bash -c` / container bodies (for directives)
    truncated: bool = False
    unfollowed: list = factory(list)  # of Unfollowed
    foreign: dict = factory(dict)  # sourced file path -> its text
    dependencies: set = factory(set)  # every file the analysis read (or tried to)
    # keyed by the statement objects (records hash by identity, so two equal assignments at
    # the same offsets of different walks stay apart); left out of equality for that reason
    sourced_at: dict = factory(dict, compare=False)  # Assign in a sourced file -> its source command's span
    overwritten_in: dict = factory(dict, compare=False)  # overwriting statement in a sourced file -> (file, span)
