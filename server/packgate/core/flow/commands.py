"""What each command does to the environment and to the exit status of a path.

COMMANDS is the one table from a command's name to its handler (ShellCheck's CFG.hs
`handleCommand` is the model). A handler gets the walk and a Call (the command on one path,
its words, and where its name is) and returns the paths after it, WRAPPED when the command
only runs the next word as a command (`nohup`, `timeout 5`, `env X=1`), or None when it does
nothing special here (a launch or a function call may still be recognised).

The statements the parser already knows as declarations (`export`, `declare`/`typeset`/
`local`/`readonly` with values, `unset`) come through the Commands methods below the table:
assignment(), export_names(), unset_names(), set_option(), exit_statement().
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from typing import Callable, Optional

from .. import gates as G
from ..parse.model import (Assign, AssignMode, Command, ExportNames, Lit, Occurrence, Opaque, Ref, SetOpt,
                           Unset, Word)
from ..parse.words import SUBSTITUTION, is_name
from .facts import UNSET, GateSite, Origin, Overwrite, Stop, Val, ValKind, Var
from .incremental import Define
from .state import FAILED, OK, Fact, State, Tested, decided
from .values import LazyValues, concat

_KNOWN = ValKind.KNOWN
WRAPPED = object()  # a handler's answer: the command is the next word (see the module docstring)


class Call:
    """One simple command on one path, from the word at index i (past its wrappers) on."""

    __slots__ = ("cmd", "words", "vals", "names", "i", "base", "prefix", "s", "replaces", "clears")

    def __init__(self, cmd: Command, vals: LazyValues, s: State):
        self.cmd, self.words, self.vals, self.names = cmd, cmd.words, vals, vals.names
        self.i, self.base, self.prefix, self.s = 0, "", list(cmd.prefix), s
        self.replaces = False  # under `exec`: nothing after the command runs
        self.clears = False  # under `env -i`: the command gets only the prefix

    @property
    def rest(self) -> list:
        """The indexes of the words after the command's name."""
        return list(range(self.i + 1, len(self.words)))


_BASES: dict = {}


def base_name(name: str) -> str:
    """os.path.basename of a command name, remembered (scripts repeat a few dozen names)."""
    base = _BASES.get(name)
    if base is None:
        base = os.path.basename(name)
        if len(_BASES) < 4096:
            _BASES[name] = base
    return base


# assignments that do not reassign this shell's variable (a readonly one stays as it is)
_NOT_REASSIGNING = frozenset((AssignMode.PREFIX, AssignMode.ENV, AssignMode.ENV_UNSET, AssignMode.DOCKER))


def _declares_readonly(keyword: str) -> bool:
    """`declare -r`, `typeset -rx`, `local -r` as written."""
    word, _, flags = keyword.partition(" ")
    return word in ("declare", "typeset", "local") and flags.startswith("-") and "r" in flags


def quiet_status(st) -> Optional[int]:
    """The status a statement leaves when the walk steps over it (or an assignment's): `true`
    and `:` 0, `false` 1, an assignment 0 unless a command substitution gives its status."""
    if type(st) is Assign:
        if st.mode == AssignMode.PLAIN and st.value is not None and \
                any(type(p) is Opaque and p.reason == SUBSTITUTION for p in st.value.parts):
            return None
        return OK
    if type(st) is Command and st.words and not st.prefix:
        name = st.words[0].text
        return OK if name in ("true", ":") else FAILED if name == "false" else None
    return None


def _assigns(text: str) -> bool:
    """Whether a word's literal start is `NAME=` (an assignment where a command takes one)."""
    eq = text.find("=")
    return eq > 0 and is_name(text[:eq])


_NOT_A_GLOB = frozenset("\"'$\\(){}[]")  # quoting, expansions, extglob: patterns not matched here
_GLOB = frozenset("*?[")


def case_match(pattern: str, subject: Optional[str]) -> Optional[bool]:
    """Whether a case pattern (`a|b*`) matches a subject: None when it cannot be told here."""
    alternatives = pattern.split("|")
    if "*" in alternatives:
        return True
    if subject is None or any(not _NOT_A_GLOB.isdisjoint(p) for p in alternatives):
        return None
    # a pattern without *, ? or [ matches itself only (fnmatch would compile a regex for it)
    return any(fnmatchcase(subject, p) if not _GLOB.isdisjoint(p) else subject == p for p in alternatives)


def case_covers(earlier: str, pattern: str) -> bool:
    """Whether every subject a plain pattern matches is matched by an earlier pattern."""
    plain = pattern.split("|")
    if any(not _NOT_A_GLOB.isdisjoint(p) or not _GLOB.isdisjoint(p) for p in plain):
        return False
    return all(case_match(earlier, p) is True for p in plain)


def shebang_errexit(data: bytes) -> bool:
    """Whether the script's `#!/bin/bash -e` line turns errexit on."""
    if not data.startswith(b"#!"):
        return False
    words = data[2:data.find(b"\n") if b"\n" in data else len(data)].split()
    return len(words) > 1 and os.path.basename(words[0]) in (b"bash", b"sh") and \
        words[1].startswith(b"-") and not words[1].startswith(b"--") and b"e" in words[1]


# ---------------------------------------------------------------- the handlers

def wrapper(flow, c: Call):
    """`nohup CMD`, `timeout 5 CMD`, `numactl -N 0 CMD`...: skip the wrapper's options (those in
    gates.WRAPPER_SYNTAX take a value) and operands; the command is what follows."""
    takes, operands = G.WRAPPER_SYNTAX[c.base]
    if c.base == "exec":
        c.replaces = True
    names, n = c.names, len(c.words)
    i = c.i + 1
    while i < n:
        t = names[i]
        if t == "--":
            i += 1
            break
        if not t.startswith("-") or t == "-":
            break
        i += 2 if t in takes else 1  # `-N 0`; `--cpunodebind=0` and `-N0` are one word
    c.i = i + operands
    return WRAPPED


def env(flow, c: Call):
    """`env X=1 -u Y CMD`: the assignments and removals are the command's prefix."""
    words, names = c.words, c.names
    i = c.i + 1
    while i < len(words):
        t = names[i]
        lead = words[i].parts[0] if words[i].parts else None
        if type(lead) is Lit and _assigns(lead.text):  # `PATH="$PATH"` too
            c.prefix.append(flow.word_assign(words[i], AssignMode.ENV))
            i += 1
        elif t in ("-S", "--split-string") and i + 1 < len(words):
            flow.split_string(c, words[i + 1])
            return [c.s]
        elif t in ("-i", "-", "--ignore-environment"):
            c.clears = True
            c.prefix = []  # what came before `env -i` is cleared too
            i += 1
        elif t in ("-u", "--unset") and i + 1 < len(words):
            flow.made += 1
            c.prefix.append(Assign(words[i].start, words[i + 1].end, name=names[i + 1],
                                   mode=AssignMode.ENV_UNSET))
            i += 2
        elif t.startswith("-"):
            i += 1
        else:
            break
    c.i = i
    return WRAPPED


def stop(flow, c: Call):
    """`exit`, `return`, `break`, `continue`: the path stops here (until its loop or call ends);
    `return N` leaves N as the call's status."""
    s = c.s
    s.done = Stop(c.base)
    if c.base == "return":
        arg = c.names[c.i + 1] if c.i + 1 < len(c.words) else None
        s.status = s.status if arg is None else OK if arg == "0" else FAILED if arg.isdigit() else None
    return [s]


def true(flow, c: Call):
    """`true`, `:`: status 0."""
    c.s.status = OK
    return [c.s]


def false(flow, c: Call):
    """`false`: status 1."""
    c.s.status = FAILED
    return [c.s]


_OPTION_LETTERS = {"a": "allexport", "e": "errexit", "u": "nounset"}


def set_(flow, c: Call):
    """`set -a` / `-e` / `-u` (`-o allexport|errexit|nounset`, `+` to turn off): the options
    a path carries."""
    if c.prefix:
        return None
    s, names, n = c.s, c.names, len(c.words)
    skip = False
    for j in c.rest:
        t = names[j]
        if skip:
            skip = False
            continue
        if t in ("-o", "+o"):
            if j + 1 < n and names[j + 1] in _OPTION_LETTERS.values():
                setattr(s, names[j + 1], t == "-o")
            skip = True
        elif t == "--":  # `set -- ARGS`: new positional parameters
            for f in s.facts:
                if f.name.isdigit():
                    s.forget(f.name)
            break
        elif t[:1] in ("-", "+") and t[1:].isalpha() and not t.startswith("--"):
            for letter in t[1:]:
                option = _OPTION_LETTERS.get(letter)
                if option:
                    setattr(s, option, t[0] == "-")
        else:
            break
    s.status = OK
    return [s]


def source(flow, c: Call):
    """`source FILE` / `. FILE`: the file runs in this shell (sourcing.py)."""
    if c.i != 0 or len(c.words) < 2:
        return None
    return flow.source(c.cmd, c.words[1], c.vals[1], c.s)


def read(flow, c: Call):
    """`read NAME...`: the names get a value the script cannot know."""
    s = c.s
    for j in c.rest:
        t = c.names[j]
        if is_name(t):
            exported = s.vars.get(t, Var(UNSET, False, None)).exported
            s.set(t, Var(Val(ValKind.UNKNOWN, via="read", origin=Origin.UNKNOWN), exported, None))
    return [s]


def export(flow, c: Call):
    """`export` reached as a command (`command export`, `builtin export`, or glued by the
    grammar to the line before): what the declaration does; `-n` unexports, `-p` only lists."""
    s, names, words = c.s, c.names, c.words
    negate = False
    for j in c.rest:
        w, t = words[j], names[j]
        lead = w.parts[0] if w.parts else None
        if t.startswith("-"):
            negate = negate or "n" in t
        elif type(lead) is Lit and _assigns(lead.text):
            a = flow.word_assign(w, AssignMode.EXPORT)
            a.exported = not negate
            flow.assign(s, a)
        elif is_name(t):
            flow.export_names(ExportNames(w.start, w.end, names=[(t, w.start, w.end)], negate=negate), [s])
    s.status = OK
    return [s]


def unset(flow, c: Call):
    """`unset` reached as a command (`command unset`): what the statement does."""
    names, option = [], ""
    for j in c.rest:
        t, w = c.names[j], c.words[j]
        if t.startswith("-"):
            option += t[1:]
        elif is_name(t):
            names.append((t, w.start, w.end))
    return flow.unset_names(Unset(c.cmd.start, c.cmd.end, names=names, option=option), [c.s])


def eval_(flow, c: Call):
    """`eval 'export X=1'`: literal words run in this shell (parsed as a `bash -c` string is);
    anything else may set any gate, so after it their values are unknown."""
    args = [c.words[j] for j in c.rest]
    s = c.s
    if not args:
        s.status = OK
        return [s]
    if all(w.text is not None for w in args):
        quote = args[0].quote if len(args) == 1 else ""
        return flow.block(flow.inner_script(Word([], args[0].start, args[-1].end, quote)).body, [s])
    for gate in G.GATES:
        s.set(gate, Var(Val(ValKind.UNKNOWN, via="eval", origin=Origin.UNKNOWN), True, None))
    return [s]


def test(flow, cmd: Command, s: State) -> list:
    """`[ -z "$1" ]`, `[[ $S = sft ]]` (a test of a form the walk decides; relevance.py keeps
    it from being stepped over): decided when the path knows the word's value or what an
    earlier test on the same variable said; else the status remembers the test (Tested)."""
    form = cmd.test
    word = cmd.words[1]
    val = flow.value(word, s)
    holds = None
    if val.kind == ValKind.KNOWN:
        holds = decided(Fact("", "eq", val.text), form.op, form.against)
    parts = word.parts
    name = parts[0].name if len(parts) == 1 and type(parts[0]) is Ref and not parts[0].op else None
    if holds is None and name is not None:
        holds = s.knows(name, form.op, form.against)
    if holds is not None:
        s.status = OK if holds else FAILED
    elif name is not None:
        s.status = Tested(name, form.op, form.against)
    return [s]


def shift(flow, c: Call):
    """`shift`: the positional parameters move, so what tests said of them goes."""
    s = c.s
    for f in s.facts:
        if f.name.isdigit():
            s.forget(f.name)
    return None


def docker(flow, c: Call):
    """`docker run [-e ...] IMAGE CMD`: CMD runs in a container (children.py)."""
    rest = c.rest
    if not any(c.names[j] == "run" for j in rest[:2]):
        return None
    flow.docker(c, rest)
    return [c.s]


def shell(flow, c: Call):
    """`bash -c '...'`: the string runs in a child shell (children.py)."""
    if c.base == "zsh" and c.prefix:
        return None
    flow.shell_c(c)
    return [c.s]


Handler = Callable[[object, Call], Optional[object]]

# command name (its base name: /usr/bin/env is env) -> handler
COMMANDS: dict[str, Handler] = {
    **{name: wrapper for name in G.WRAPPERS},
    "env": env,
    "exit": stop, "return": stop, "break": stop, "continue": stop,
    "set": set_,
    "true": true, ":": true, "false": false,
    "source": source, ".": source,
    "read": read,
    "export": export, "unset": unset, "eval": eval_,
    "shift": shift,
    "docker": docker,
    "bash": shell, "sh": shell, "zsh": shell,
}
STOPS = frozenset(("exit", "return", "break", "continue"))
# commands that decide a status or forget facts, whose words reach no check
STATUS_ONLY = frozenset(("true", ":", "false", "shift"))
# names can flow where the walk cannot follow them
UNFOLLOWED = frozenset(("eval",))
# builtins that change variables or options, reached as commands only through `command` or
# `builtin` (the parser makes declarations of the direct ones): never stepped over
DECLARING = frozenset(("export", "declare", "typeset", "local", "unset", "shopt"))
# commands the walk may not step over: they act, launch or may
ACTIVE = frozenset(COMMANDS) | G.LAUNCH_COMMANDS | UNFOLLOWED | DECLARING
# commands whose words can reach a check: launchers, the wrappers that run one (`numactl ...
# torchrun`), and the commands that change this shell or start another
REACHING = (frozenset(COMMANDS) - STOPS - STATUS_ONLY) | G.LAUNCH_COMMANDS | UNFOLLOWED


class Commands:
    """The walk's commands and declarations (a part of flow.analysis.Flow)."""

    def command(self, cmd: Command, states: list) -> list:
        """A simple command on every path (its command substitutions first)."""
        for sub in cmd.pre:
            states = self.stmt(sub, states)
        out = []
        for s in states:
            out.extend(self.command_in(cmd, s))
        return out

    def command_in(self, cmd: Command, s: State) -> list:
        """A simple command on one path: its handler, else a launch, else a function call."""
        words = cmd.words
        if not words:
            return [s]
        for w in words:
            if w.effects:  # ${X:=d} assigns, a gate read makes it the caller's: even for `echo`
                self.value(w, s)
        s.status = None  # an ordinary command may succeed or fail
        if cmd.test is not None:
            return test(self, cmd, s)
        c = Call(cmd, LazyValues(self, words, s), s)
        while c.i < len(words):
            c.base = base_name(c.names[c.i])
            handler = COMMANDS.get(c.base)
            if handler is None:
                break
            out = handler(self, c)
            if out is WRAPPED:
                continue
            if out is not None:
                return self.replaced(c, out)
            break
        else:
            return [s]  # wrappers of nothing (`exec` alone only redirects)
        launcher = self.launcher(c)
        if launcher:
            self.launch(c, launcher)
            return self.replaced(c, [s])
        return self.replaced(c, self.function_call(c))

    @staticmethod
    def replaced(c: Call, out: list) -> list:
        """After `exec CMD`, nothing of this shell runs on (CMD replaced it)."""
        if c.replaces:
            for s in out:
                if not s.done:
                    s.done = Stop.EXIT
        return out

    def function_call(self, c: Call) -> list:
        """`name args`: a function defined earlier runs where it is called (walk.call)."""
        s, name = c.s, c.names[c.i]
        fdef = self.functions.get(name)
        if fdef is None:
            return [s]
        self.called[name] = None
        self.looked_up.append(name)
        if not c.prefix:
            if self.inert(fdef.body):  # log(), die(): nothing to walk (but it may change variables)
                s.facts = ()
                return [s]
            args = []
            for w in c.words[c.i + 1:]:
                args.extend(self.values(w, s))
            return self.call(fdef, [s], args)
        child = s.fork()  # `X=1 f`: the prefix holds for the call only
        for a in c.prefix:
            self.assign(child, a) if a.mode != AssignMode.ENV_UNSET else child.drop(a.name)
        self.call(fdef, [child])
        return [s]

    # ---------------------------------------------------------------- declarations

    def assignment(self, st: Assign, states: list) -> list:
        """NAME=value (plain, exported, declared or local) on every path: status 0 (a plain
        one with a command substitution: the substitution's, unknown here)."""
        status = quiet_status(st)
        for s in states:
            s.status = status
            self.assign(s, st)
        return states

    def export_names(self, st: ExportNames, states: list) -> list:
        """`export NAME...` marks the names exported; `export -n NAME` removes the mark;
        `readonly NAME` makes later changes fail."""
        for s in states:
            s.status = OK
            if st.readonly:
                s.readonly = s.readonly | {name for name, _, _ in st.names}
            for name, _, _ in st.names:
                var = s.vars.get(name)
                if not st.exports:
                    continue
                if st.negate:
                    if var is not None:
                        s.set(name, var._replace(exported=False, negated=True))
                        s.removed[name] = (st.start, st.end)
                else:
                    s.set(name, var._replace(exported=True) if var is not None else
                          Var(UNSET, True, None))
        return states

    def unset_names(self, st: Unset, states: list) -> list:
        """`unset NAME...` removes the variables (an overwrite of their assignments); `-f` the
        functions instead, `-n` namerefs (none here); a readonly name stays, status 1."""
        if "f" in st.option:
            for name, _, _ in st.names:
                if name in self.functions:
                    self.fn_version += 1
                    self.define(Define(name, None, [], None))
            for s in states:
                s.status = OK
            return states
        if "n" in st.option:
            for s in states:
                s.status = OK
            return states
        for s in states:
            s.status = OK
            for name, _, _ in st.names:
                if name in s.readonly:
                    s.status = FAILED
                    continue
                old = s.drop(name)
                s.removed[name] = (st.start, st.end)
                if old is not None and old.origin is not None:
                    self.overwrite(old.origin, st)
        return states

    def set_option(self, st: SetOpt, states: list) -> list:
        """`set -a` as a statement of its own."""
        for s in states:
            s.allexport, s.status = st.allexport, OK
        return states

    def exit_statement(self, st, states: list) -> list:
        """An Exit statement: every path stops."""
        for s in states:
            s.done = Stop(st.kind)
        return states

    def assign(self, s: State, a: Assign, value: Optional[Val] = None) -> None:
        """What an assignment does to one path: the value, the export mark, a local's frame; to
        a readonly name it fails (status 1) and changes nothing but an export's mark."""
        old = s.vars.get(a.name)
        if a.name in s.readonly and a.mode not in _NOT_REASSIGNING:
            s.status = FAILED
            if a.mode == AssignMode.EXPORT and old is not None:
                s.set(a.name, old._replace(exported=True))
            return
        if a.mode == AssignMode.READONLY or _declares_readonly(a.keyword):
            s.readonly = s.readonly | {a.name}
        array = None
        if value is None:
            if a.array is not None:
                elems = []
                cache = self.sourced_literals if self.sourced else self.literals
                for w in a.array:
                    if w.text is not None:  # a literal element: its value is computed once
                        v = cache.get(w)
                        elems.append(v if v is not None else self.value(w, s))
                    else:
                        elems.extend(self.values(w, s))
                array = tuple(elems)
                if a.append and old is not None and old.array is not None:
                    array = old.array + array
                value = array[0] if array else Val(_KNOWN, "")
            elif a.value is None:
                value = Val(_KNOWN, "", lit=(a.eq_end, a.eq_end), span=(a.eq_end, a.eq_end))
            else:
                value = self.value(a.value, s)
                if a.append and old is not None:
                    value = concat([old.val, value])
        mode = a.mode
        exported = a.exported or s.allexport or (old is not None and old.exported)
        if mode == AssignMode.LOCAL or (mode == AssignMode.DECLARE and s.frames and "g" not in a.keyword):
            s.save_local(a.name)  # local / declare in a function: undone on return
        s.removed.pop(a.name, None)
        if old is not None and old.origin is not None and mode != AssignMode.PREFIX:
            self.overwrite(old.origin, a)
        s.set(a.name, Var(value, exported, a, array))
        if a.name in G.GATES or a.name in G.OTHER_VARS:
            self.gate_sites.setdefault(a, GateSite(a, value))
            if a.file is not None and self.via is not None:
                self.sourced_at.setdefault(a, self.via)

    def overwrite(self, origin: Assign, by) -> None:
        """A gate's assignment replaced (or unset) by `by`."""
        if origin.name in G.GATES and origin not in self.overwrites:
            self.overwrites[origin] = Overwrite(origin, by)
            if len(self.file_stack) > 1 and self.via is not None:  # `by` is in a sourced file
                self.overwritten_in[by] = (self.file_stack[-1], self.via)

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
