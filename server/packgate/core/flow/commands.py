"""What each command does to the environment and to the exit status of a path, as data.

COMMANDS is the one table from a command's name to its Handler (ShellCheck's CFG.hs
`handleCommand` is the model): the function that looks at the command and returns its effects
(effects.py), and the static facts the passes before the walk read (relevance.py, children.py).
A handler gets a Call, a view of the command on one path (its words, their values evaluated on
demand, where its name is, its prefix, the path's state to read), and returns a sequence of
effects, or None when it does nothing special here (a launch or a function call may still be
recognised). It never touches the walk: apply.py applies the effects and knows no command.
"""

from __future__ import annotations

import os

from .. import gates as G
from ..parse.model import Assign, AssignMode, Command, Lit, Opaque, Ref, Word
from ..parse.words import SUBSTITUTION, is_name
from ..records import record
from .environ import CLEAR, SPLIT_STRING, WRAPPERS, Unreadable, UnsetVar, element_assignment
from .environ import read as read_environ
from .effects import (AsCommand, AssignWord, ChildEnv, Declare, Environ, NewPositional, Next, Option, RunChild,
                      RunContainer, RunHere, SetOption, SetValue, Source, Status, StopPath, UnreadNames,
                      UnsetNames, attributes_of)
from .arith import assigned_names, read_names
from .facts import NAMED, Origin, Stop, UnfollowedKind, Val, ValKind
from .input_builtins import READ, mapfile, printf, printf_acts, printf_assigns, read, read_assigns, word_refs_of
from .state import FAILED, OK, Fact, State, Tested, decided
from .values import LazyValues

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Callable, Optional


class Call:
    """One simple command on one path, from the word at index i (past its wrappers) on: what a
    handler reads. apply.py moves i past a wrapper and keeps the environment the wrappers give
    the command (prefix, clears, replaces); a handler changes none of it, nor the state s."""

    __slots__ = ("cmd", "words", "vals", "names", "i", "base", "prefix", "s", "replaces", "clears", "reach")

    def __init__(self, cmd: Command, vals: LazyValues, s: State):
        self.cmd, self.words, self.vals, self.names = cmd, cmd.words, vals, vals.names
        self.i, self.base, self.prefix, self.s = 0, "", list(cmd.prefix), s
        self.replaces = False  # under `exec`: nothing after the command runs
        self.clears = False  # under `env -i`: the command gets only the prefix (and reach.kept)
        self.reach = None  # a Reach once a wrapper keeps some names, drops gates or hides its words

    @property
    def rest(self) -> list:
        """The indexes of the words after the command's name."""
        return list(range(self.i + 1, len(self.words)))


class Reach:
    """What the wrappers of one command did beyond a plain clear (commands.Call.reach, filled by
    apply.Applier.effect_environ): the names of this shell's exports that still pass, what a
    clear by a wrapper's own rules dropped, and what cannot be read."""

    __slots__ = ("kept", "outer", "outer_prefix", "drops", "maybe", "unknown", "input_args", "unseen_file",
                 "env_lines")

    def __init__(self):
        self.kept = frozenset()  # under a clear: the names of this shell's exports that pass
        self.outer = None  # before the last clear: the names that passed (None: every export)
        self.outer_prefix: list = []  # the prefix the last clear set aside (a Pass takes its names back)
        self.drops: dict = {}  # gate -> (the Clear that dropped it, the assignment it had)
        self.maybe: list = []  # Clears that only may apply (a hostfile's hosts)
        self.unknown = ""  # the wrapper's words that decide the environment cannot be read: who
        self.input_args = None  # xargs: where its input joins the words (environ.InputArgs.replace)
        self.unseen_file = False  # .deepspeed_env may be somewhere packgate cannot locate
        self.env_lines: dict = {}  # name -> value: the .deepspeed_env lines every node gets


_BASES: dict = {}
_PLAIN = AssignMode.PLAIN  # (an enum's member read off its class is slow: values.py says why)


def base_name(name: str) -> str:
    """os.path.basename of a command name, remembered (scripts repeat a few dozen names)."""
    base = _BASES.get(name)
    if base is None:
        base = os.path.basename(name)
        if len(_BASES) < 4096:
            _BASES[name] = base
    return base


def quiet_status(st) -> Optional[int]:
    """The status a statement leaves when the walk steps over it (or an assignment's): `true`
    and `:` 0, `false` 1, an assignment 0 unless a command substitution gives its status."""
    if type(st) is Assign:
        if st.mode == _PLAIN and st.value is not None and \
                any(type(p) is Opaque and p.reason == SUBSTITUTION for p in st.value.parts):
            return None
        return OK
    if type(st) is Command and st.words and not st.prefix:
        entry = COMMANDS.get(st.words[0].text)
        return entry.status if entry is not None else None
    return None


def _assigns(text: str) -> bool:
    """Whether a word's literal start is `NAME=` (an assignment where a command takes one)."""
    eq = text.find("=")
    return eq > 0 and is_name(text[:eq])


def shebang_errexit(data: bytes) -> bool:
    """Whether the script's `#!/bin/bash -e` line turns errexit on."""
    if not data.startswith(b"#!"):
        return False
    words = data[2:data.find(b"\n") if b"\n" in data else len(data)].split()
    return len(words) > 1 and os.path.basename(words[0]) in (b"bash", b"sh") and \
        words[1].startswith(b"-") and not words[1].startswith(b"--") and b"e" in words[1]


# ---------------------------------------------------------------- the handlers

def wrapper(c: Call):
    """`nohup CMD`, `timeout 5 CMD`, `numactl -N 0 CMD`, `exec CMD`...: what the wrapper does to
    the environment of its command (its row in environ.WRAPPERS reads its words); the command is
    what follows (after `exec`, nothing of this shell runs on)."""
    transforms, at = read_environ(c.base, c.names, c.words, c.i + 1)
    return (Environ(transforms), Next(at, c.base == "exec"))


def env(c: Call):
    """`env X=1 -u Y CMD`: the assignments and removals are the command's prefix; `-i` clears
    what came before; `-S STRING` runs the string, split into words, as the command."""
    if any(_splits(c.words[j]) for j in c.rest):
        return env_elements(c)
    transforms, at = read_environ(c.base, c.names, c.words, c.i + 1)
    if at < len(c.words) and c.names[at] in SPLIT_STRING:
        return (Environ(transforms), RunChild(c.words[at + 1], ChildEnv.COMMAND))
    return (Environ(transforms), Next(at))


def _splits(word: Word) -> bool:
    """Whether a word is `"${ARR[@]}"` (or `$ARR[@]` unquoted): one word giving several."""
    parts = word.parts
    return len(parts) == 1 and type(parts[0]) is Ref and parts[0].array_all


def env_elements(c: Call):
    """`env "${ENVS[@]}" CMD`: an array's elements are env's words, each NAME=value one more
    assignment; an element the path does not know leaves the gates unknown; the command must
    start at a word of its own (else nothing here follows it)."""
    items = []
    for j in c.rest:
        w = c.words[j]
        if _splits(w):
            items.extend((v, j, False) for v in c.vals.flow.values(w, c.s))
        else:
            items.append((c.vals[j], j, True))
    transforms: list = []
    k = 0
    while k < len(items):
        v, j, whole = items[k]
        t = v.text if v.kind == ValKind.KNOWN or v.kind == ValKind.DEFAULT else None
        if t is None:
            transforms.append(Unreadable("env " + (c.words[j].raw or "?")))
        elif _assigns(t):
            transforms.append(element_assignment(t, v, c.words[j]))
        elif t in ("-i", "-", "--ignore-environment"):
            transforms.append(CLEAR)
        elif t in ("-u", "--unset") and k + 1 < len(items):
            k += 1
            transforms.append(UnsetVar(items[k][0].text, c.words[j].start, c.words[items[k][1]].end))
        elif not t.startswith("-"):
            return (Environ(tuple(transforms)), Next(j)) if whole else (Environ(tuple(transforms)), AsCommand())
        k += 1
    return (Environ(tuple(transforms)),)


_STOPS = {name: (StopPath(Stop(name)),) for name in ("exit", "return", "break", "continue")}


def stop(c: Call):
    """`exit`, `return`, `break`, `continue`: the path stops here (until its loop or call ends);
    `return N` leaves N as the call's status."""
    if c.base == "return" and c.i + 1 < len(c.words):
        arg = c.names[c.i + 1]
        return _STOPS["return"] + (Status(OK if arg == "0" else FAILED if arg.isdigit() else None),)
    return _STOPS[c.base]


def status_of(status: int) -> Callable:
    """The handler of a command that only leaves a status (`true`, `:` 0; `false` 1): the
    table's entry names the status once, for the walk and for the steps over it (quiet_status)."""
    effects = (Status(status),)

    def handler(c: Call):
        return effects

    handler.__doc__ = f"Status {status}."
    return handler


_OPTION_LETTERS = {"a": Option.ALLEXPORT, "e": Option.ERREXIT, "u": Option.NOUNSET}
_OPTIONS = {o.value: o for o in Option}
_STATUS_OK = Status(OK)
_NONE: frozenset = frozenset()


def set_(c: Call):
    """`set -a` / `-e` / `-u` (`-o allexport|errexit|nounset`, `+` to turn off): the options
    a path carries; `set -- ARGS`: new positional parameters."""
    if c.prefix:
        return None
    names, n = c.names, len(c.words)
    out: list = []
    skip = False
    for j in c.rest:
        t = names[j]
        if skip:
            skip = False
            continue
        if t in ("-o", "+o"):
            if j + 1 < n and names[j + 1] in _OPTIONS:
                out.append(SetOption(_OPTIONS[names[j + 1]], t == "-o"))
            skip = True
        elif t == "--":
            args: list = []
            for k in range(j + 1, n):
                args.extend(c.vals.positional(k))
            out.append(NewPositional(tuple(args)))
            break
        elif t[:1] in ("-", "+") and t[1:].isalpha() and not t.startswith("--"):
            for letter in t[1:]:
                option = _OPTION_LETTERS.get(letter)
                if option:
                    out.append(SetOption(option, t[0] == "-"))
        else:
            break
    out.append(_STATUS_OK)
    return out


def source(c: Call):
    """`source FILE` / `. FILE`: the file runs in this shell (sourcing.py)."""
    if c.i != 0 or len(c.words) < 2:
        return None
    return (Source(c.words[1], c.vals[1]),)


def getopts(c: Call):
    """`getopts SPEC NAME`: NAME and OPTARG get what the caller's arguments hold (unknown);
    whether an option is left is not known either."""
    plain = [c.names[j] for j in c.rest]
    out: list = [SetValue("OPTARG", READ)]
    if len(plain) >= 2 and is_name(plain[1]):
        out.append(SetValue(plain[1], READ))
    out.append(Status(None))
    return out


def arith(c: Call):
    """`(( EXPR ))`, `let EXPR...`: the assignments the expressions make (arith.py; a value it
    cannot tell makes the names it assigns unknown); status 0 when the last value is not 0."""
    out: list = []
    value = None
    earlier: dict = {}  # `let A=1 B=A+1`: B sees A's new value
    for j in c.rest:
        word = c.words[j]
        if word.text is not None:
            value, assigned = c.vals.arith(word.text, earlier)
        elif c.vals[j].kind == ValKind.KNOWN:  # `let "X=$Y"`: the word's value is the expression
            value, assigned = c.vals.arith(c.vals[j].text, earlier)
        else:
            value, assigned = None, [(name, None) for name in assigned_names(word.raw)]
        for name, v in assigned:
            earlier[name] = None if v is None else str(v)
            out.append(SetValue(name, Val(ValKind.KNOWN, str(v)) if v is not None else
                                Val(ValKind.UNKNOWN, via=name, origin=Origin.UNKNOWN)))
    out.append(Status(None if value is None else OK if value != 0 else FAILED))
    return out


def arith_assigns(cmd: Command) -> list:
    """What `(( ))` / `let` assign, for the passes before the walk: (name, names its value reads)."""
    out = []
    for w in cmd.words[1:]:
        text = w.text if w.text is not None else w.raw
        reads = read_names(text) | word_refs_of(w)
        out.extend((name, reads) for name in assigned_names(text))
        out.append((STATUS, reads))  # its status too: under set -e or in a condition it decides the path
    return out


STATUS = "?"  # the name the passes before the walk give a command's status (a root: it decides paths)


_EVAL = Val(ValKind.UNKNOWN, via="eval", origin=Origin.UNKNOWN)
_EVAL_ANY = tuple(SetValue(gate, _EVAL, True) for gate in G.GATES)
_LITERAL_NAME = Val(ValKind.KNOWN)


def _prefix_value(c: Call, name: str) -> Optional[Val]:
    """The value the command's own prefix gives name (`X=1 export X`), on this path; None without one."""
    for a in reversed(c.prefix):
        if a.name == name and a.mode == AssignMode.PREFIX and a.array is None:
            return c.vals.flow.value(a.value, c.s) if a.value is not None else Val(ValKind.KNOWN, "")
    return None


def declare(c: Call):
    """`export`, `declare`, `typeset`, `local`, `readonly` reached as commands (through
    `command`/`builtin`, or with names made at run time: `export "$v=1"`, `export "${ENVS[@]}"`,
    `declare -gx "$v=1"`): each word, as the path expands it, is `NAME=value` or `NAME`; a word
    the path cannot tell may name any variable, so the gates become unknown. `local` outside a
    function fails (status 1) and declares nothing."""
    kind = c.base
    if kind == "local" and not c.s.frames:
        return (Status(FAILED),)
    names, words = c.names, c.words
    out: list = []
    flags = ""
    negate = False
    for j in c.rest:
        w, t = words[j], names[j]
        if w.text is not None and t[:1] in ("-", "+") and len(t) > 1:
            flags += t[1:] if t[0] == "-" else ""
            negate = negate or (t[0] == "+" and "x" in t) or (kind == "export" and "n" in t)
            continue
        exported = (kind == "export" or "x" in flags) and not negate
        local = kind == "local" or kind in ("declare", "typeset") and bool(c.s.frames) and "g" not in flags
        lead = w.parts[0] if w.parts else None
        if type(lead) is Lit and _assigns(lead.text):
            mode = _DECLARED_MODES.get(kind, AssignMode.DECLARE)
            keyword = kind + (" -" + flags if flags else "")
            out.append(AssignWord(w, exported if kind != "export" else not negate, mode, keyword))
            continue
        for v in (_LITERAL_NAME._replace(text=w.text),) if w.text is not None else c.vals.expand(j):
            if v.kind != ValKind.KNOWN:
                if not local:  # PG009 says what could not be seen
                    return tuple(out) + (UnreadNames(w.start, w.end, w.raw or "?", exported), _STATUS_OK)
                note = UnreadNames(w.start, w.end, w.raw or "?", exported, UnfollowedKind.LOCAL, True)
                return tuple(out) + (note,) + tuple(SetValue(g, NAMED, True if exported else None, local=local)
                                                    for g in G.GATES) + (_STATUS_OK,)
            name, eq, value = v.text.partition("=")
            if not is_name(name):
                out.append(Status(FAILED))
                continue
            if eq:
                out.append(SetValue(name, Val(ValKind.KNOWN, value), True if exported else None, local=local))
            elif exported or negate:
                given = _prefix_value(c, name) if kind == "export" and not negate else None
                if given is not None:  # `X=1 export X`: bash keeps the prefix's value, exported
                    out.append(SetValue(name, given, True))
                out.append(Declare(((name, w.start, w.end),), w.start, w.end, export=not negate))
    out.append(_STATUS_OK if not any(type(e) is Status for e in out) else Status(FAILED))
    return out


_DECLARED_MODES = {"export": AssignMode.EXPORT, "local": AssignMode.LOCAL, "readonly": AssignMode.READONLY}


def unset(c: Call):
    """`unset` reached as a command (`command unset`, or `unset "${!PREFIX@}"`: names made at
    run time, as the path expands them; one it cannot tell may be any gate)."""
    names, option = [], ""
    for j in c.rest:
        t, w = c.names[j], c.words[j]
        if t.startswith("-") and w.text is not None:
            option += t[1:]
        elif w.text is not None:
            if is_name(t):
                names.append((t, w.start, w.end))
        else:
            for v in c.vals.expand(j):
                if v.kind != ValKind.KNOWN:
                    return _unset_any(names, c, option, w)
                for t2 in v.text.split():
                    if is_name(t2):
                        names.append((t2, w.start, w.end))
    return (UnsetNames(tuple(names), c.cmd.start, c.cmd.end, "f" in option, "n" in option, c.cmd),)


def _unset_any(names: list, c: Call, option: str, w: Word) -> tuple:
    """`unset` of names the path cannot tell (w: the first such word): those it can are
    removed, the gates become unknown and PG009 says why."""
    if "f" in option:
        return (UnsetNames(tuple(names), c.cmd.start, c.cmd.end, True, False, c.cmd),)
    return (UnsetNames(tuple(names), c.cmd.start, c.cmd.end, False, "n" in option, c.cmd),
            UnreadNames(w.start, w.end, w.raw or "?", False, UnfollowedKind.UNSET))


def eval_(c: Call):
    """`eval 'export X=1'`: literal words run in this shell (parsed as a `bash -c` string is);
    anything else may set any gate, so after it their values are unknown."""
    args = [c.words[j] for j in c.rest]
    if not args:
        return (_STATUS_OK,)
    if all(w.text is not None for w in args):
        quote = args[0].quote if len(args) == 1 else ""
        return (RunHere(Word([], args[0].start, args[-1].end, quote)),)
    return _EVAL_ANY


def test(c: Call):
    """`[ -z "$1" ]`, `[[ $S = sft ]]` (a test of a form the walk decides; relevance.py keeps
    it from being stepped over): decided when the path knows the word's value or what an
    earlier test on the same variable said; else the status remembers the test (Tested)."""
    form = c.cmd.test
    val = c.vals[1]
    holds = None
    if val.kind == ValKind.KNOWN:
        holds = decided(Fact("", "eq", val.text), form.op, form.against)
    parts = c.words[1].parts
    name = parts[0].name if len(parts) == 1 and type(parts[0]) is Ref and not parts[0].op else None
    if holds is None and name is not None:
        holds = c.s.knows(name, form.op, form.against)
    if holds is not None:
        return (Status(OK if holds else FAILED),)
    if name is not None:
        return (Status(Tested(name, form.op, form.against)),)
    return ()


_SHIFT = (NewPositional(None, 1), AsCommand())


def shift(c: Call):
    """`shift [N]`: the positional parameters move, so what tests said of them goes (those
    `set --` gave move by N)."""
    if c.i + 1 < len(c.words):
        val = c.vals[c.i + 1]
        n = val.text if val.kind == ValKind.KNOWN else ""
        return (NewPositional(None, int(n) if n.isdigit() and len(n) < 4 else -1), AsCommand())
    return _SHIFT


def docker(c: Call):
    """`docker run [-e ...] IMAGE CMD`: CMD runs in a container that sees only the `-e` options
    (children.py); `bash -c STRING` there runs STRING."""
    words, names, rest = c.words, c.names, c.rest
    if not any(names[j] == "run" for j in rest[:2]):
        return None
    run_at = next(k for k in rest if names[k] == "run")
    env, image_at = read_environ(c.base, names, words, run_at + 1)
    inner = tuple(range(image_at + 1, len(words))) if image_at is not None else ()
    if not inner or base_name(names[inner[0]]) not in CHILD_SHELLS:
        return (RunContainer(run_at, env, inner),)
    script = None
    for idx, k in enumerate(inner[1:], start=1):
        t = names[k]
        if t.startswith("-") and "c" in t[1:]:
            if idx + 1 < len(inner):
                script = words[inner[idx + 1]]
            break
        if not t.startswith("-"):
            break
    return (RunContainer(run_at, env, (), True, script),)


def shell(c: Call):
    """`bash -c '...'`: the string runs in a child shell (children.py)."""
    if c.base == "zsh" and c.prefix:
        return None
    words, names, rest = c.words, c.names, c.rest
    from_stdin = True  # no script operand (or -s): the shell reads its script from its input
    for idx, j in enumerate(rest):
        t = names[j]
        if t.startswith("-") and "c" in t[1:] and not t.startswith("--"):
            if idx + 1 < len(rest):
                return (RunChild(words[rest[idx + 1]], ChildEnv.EXPORTED),)
            break
        if t.startswith("-") and "s" in t[1:] and not t.startswith("--"):
            break  # `bash -s ARGS`: the arguments are the positional parameters
        if not t.startswith("-"):
            from_stdin = False
            break
    stdin = c.cmd.stdin
    if from_stdin and stdin is not None:  # `bash <<'EOF'`: the here-document is the script
        return (RunChild(stdin, ChildEnv.STDIN if stdin.quote == "'" else ChildEnv.EXPANDED),)
    return ()


@record(frozen=True)
class Handler:
    """A command's entry in COMMANDS: the function that returns its effects (None: it acts, so
    the walk never steps over it, but nothing here follows what it does), and what the passes
    before the walk read of it."""

    effects: Optional[Callable[[Call], Optional[object]]]
    stops: bool = False  # the path ends here: its words reach no check
    status_only: bool = False  # it leaves a status or forgets facts, nothing more: its words reach no check
    status: Optional[int] = None  # the status it surely leaves (quiet_status): a step over it leaves it too
    opaque: bool = False  # names can flow where no pass can follow them: every variable is relevant
    positional: bool = False  # it reads or moves the positional parameters where its words do not show it
    child_shell: bool = False  # `bash -c STRING` runs STRING in a child shell (also inside `docker run`)
    declares: bool = False  # its options are attributes of the names it declares (`declare -r`: readonly)
    # what it assigns where no assignment shows it, for the passes before the walk: the
    # command -> [(name, names its value reads)] (`(( X = Y + 1 ))`, `read A <<< "$B"`)
    assigns: Optional[Callable[[Command], list]] = None
    # whether this use of the command acts at all (None: every use does): `printf` without `-v`
    # only prints, so the walk steps over it and its words reach no check
    acts: Optional[Callable[[Command], bool]] = None


# command name (its base name: /usr/bin/env is env) -> Handler
COMMANDS: dict[str, Handler] = {
    **{name: Handler(wrapper) for name in WRAPPERS},
    "env": Handler(env),
    "exit": Handler(stop, stops=True), "return": Handler(stop, stops=True),
    "break": Handler(stop, stops=True), "continue": Handler(stop, stops=True),
    "set": Handler(set_, positional=True),
    "true": Handler(status_of(OK), status_only=True, status=OK),
    ":": Handler(status_of(OK), status_only=True, status=OK),
    "false": Handler(status_of(FAILED), status_only=True, status=FAILED),
    "source": Handler(source, opaque=True), ".": Handler(source, opaque=True),
    "read": Handler(read, assigns=read_assigns),
    "mapfile": Handler(mapfile, assigns=read_assigns), "readarray": Handler(mapfile, assigns=read_assigns),
    "getopts": Handler(getopts),
    "printf": Handler(printf, assigns=printf_assigns, acts=printf_acts),
    "let": Handler(arith, assigns=arith_assigns), "((": Handler(arith, assigns=arith_assigns),
    "export": Handler(declare), "unset": Handler(unset), "eval": Handler(eval_, opaque=True),
    "shift": Handler(shift, status_only=True, positional=True),
    "docker": Handler(docker),
    "bash": Handler(shell, child_shell=True), "sh": Handler(shell, child_shell=True),
    "zsh": Handler(shell, child_shell=True),
    # builtins that change variables or options, reached as commands only through `command` or
    # `builtin` (the parser makes declarations of the direct ones): never stepped over
    "declare": Handler(declare, declares=True), "typeset": Handler(declare, declares=True),
    "local": Handler(declare, declares=True), "readonly": Handler(declare), "shopt": Handler(None),
}

# what the passes before the walk read of the table
STOPS = frozenset(name for name, h in COMMANDS.items() if h.stops)
# names can flow where no pass can see them (`source`, `eval`): every variable is relevant
OPAQUE = frozenset(name for name, h in COMMANDS.items() if h.opaque)
# commands that may read any positional parameter where their words do not show it
READS_ALL_ARGS = OPAQUE | frozenset(name for name, h in COMMANDS.items() if h.positional)
CHILD_SHELLS = frozenset(name for name, h in COMMANDS.items() if h.child_shell)
# commands that assign names no assignment shows: name -> Handler.assigns
ASSIGNS = {name: h.assigns for name, h in COMMANDS.items() if h.assigns is not None}
# commands the walk may not step over: they act, launch or may
ACTIVE = frozenset(COMMANDS) | G.LAUNCH_COMMANDS
_ACTS = {name: h.acts for name, h in COMMANDS.items() if h.acts is not None}


def acts(base: Optional[str], cmd: Command) -> bool:
    """Whether a command of ACTIVE or REACHING (by its base name) acts in this use (Handler.acts)."""
    found = _ACTS.get(base)
    return found is None or found(cmd)

# commands whose words can reach a check: launchers, the wrappers that run one (`numactl ...
# torchrun`), and the commands that change this shell or start another
REACHING = frozenset(name for name, h in COMMANDS.items()
                     if h.effects is not None and not h.stops and not h.status_only) | G.LAUNCH_COMMANDS


def attributes(keyword: str) -> frozenset:
    """The Attributes a declaration gives as written (`declare -rx` gives READONLY and EXPORTED;
    `export` and `readonly`, whose modes say what they do, give none)."""
    word, _, flags = keyword.partition(" ")
    entry = COMMANDS.get(word)
    return attributes_of(flags[1:]) if entry is not None and entry.declares and flags.startswith("-") else _NONE
