"""Applying what commands and declarations do to the paths: the walk's half of ShellCheck's
CFGAnalysis.hs. A command's handler (commands.COMMANDS) returns its effects (effects.py); this
module applies them, one method per kind of effect (EFFECTS), and knows no command's name. The
statements the parser already knows as declarations (`NAME=value`, `export`, `declare`/`local`/
`readonly` with values, `unset`, `set -a`, `exit`) are applied by the methods below them:
assignment(), export_names(), unset_names(), set_option(), exit_statement()."""

from __future__ import annotations

from typing import Optional

from .. import gates as G
from ..parse.model import Assign, AssignMode, Command, ExportNames, Lit, Occurrence, Opaque, SetOpt, Unset, Word
from .commands import COMMANDS, Call, Reach, attributes, base_name, quiet_status, test
from .effects import (AsCommand, AssignWord, ChildEnv, Environ, Export, NewPositional, Next, RunChild, RunContainer,
                      RunHere, SetOption, SetValue, Source, Status, StopPath, UnreadNames, UnsetNames)
from .environ import (Clear, DeepSpeedEnv, InputArgs, Keep, Pass, PassPrefix, SetText, SetVar, Unreadable,
                      UnsetVar)
from .arith import evaluate
from .facts import UNSET, GateSite, Origin, Overwrite, Stop, UnfollowedKind, Val, ValKind, Var
from .record import Define
from .state import FAILED, OK, State
from .values import CALLER_ARGS, SOME_ARGS, LazyValues, concat, element_of, positional_vars, with_element

_KNOWN = ValKind.KNOWN
_NEXT, _AS_COMMAND = object(), object()  # apply()'s answers: the next word is the command; it runs as one
# assignments that do not reassign this shell's variable (a readonly one stays as it is)
_NOT_REASSIGNING = frozenset((AssignMode.PREFIX, AssignMode.ENV, AssignMode.ENV_UNSET, AssignMode.DOCKER))


class Applier:
    """The walk's commands and declarations: a command's effects applied to its path. It knows no
    command's name; a launch, a `source` and a child shell are handed to their parts."""

    def __init__(self, inp, where, rec, evaluator, inertness, walker) -> None:
        self.inp, self.where, self.rec, self.evaluator, self.inertness = inp, where, rec, evaluator, inertness
        self.walker = walker
        self.launching = self.sourcing = self.kids = None  # connect()

    def connect(self, launching, sourcing, kids) -> None:
        """The parts a command is handed to: launches, `source`, child shells and containers."""
        self.launching, self.sourcing, self.kids = launching, sourcing, kids

    def command(self, cmd: Command, states: list) -> list:
        """A simple command on every path (its command substitutions first)."""
        for sub in cmd.pre:
            states = self.walker.stmt(sub, states)
        out = []
        for s in states:
            out.extend(self.command_in(cmd, s))
        return out

    def command_in(self, cmd: Command, s: State) -> list:
        """A simple command on one path: its handler's effects, else a launch, else a function call."""
        words = cmd.words
        if not words:
            return [s]
        for w in words:
            if w.effects:  # ${X:=d} assigns, a gate read makes it the caller's: even for `echo`
                self.evaluator.value(w, s)
        s.status = None  # an ordinary command may succeed or fail
        c = Call(cmd, LazyValues(self.evaluator, words, s), s)
        if cmd.test is not None:
            return self.apply(test(c), c)
        while c.i < len(words):
            c.base = base_name(c.names[c.i])
            entry = COMMANDS.get(c.base)
            if entry is None or entry.effects is None:
                break
            effects = entry.effects(c)
            if effects is None:
                break
            out = self.apply(effects, c)
            if out is _NEXT:
                continue
            if out is _AS_COMMAND:
                break
            return self.replaced(c, out)
        else:
            return [s]  # wrappers of nothing (`exec` alone only redirects)
        launcher = self.launching.launcher(c)
        if launcher:
            self.launching.launch(c, launcher)
            return self.replaced(c, [s])
        return self.replaced(c, self.function_call(c))

    def apply(self, effects, c: Call):
        """A handler's effects, in order, on the command's path: the paths after them, or _NEXT
        (the command is the word c.i now points at) or _AS_COMMAND (what the command names runs)."""
        states = [c.s]
        table = EFFECTS
        for e in effects:
            kind = type(e)
            if kind is Next:
                c.i = e.at
                if e.replaces:
                    c.replaces = True
                return _NEXT
            if kind is AsCommand:
                return _AS_COMMAND
            states = table[kind](self, e, c, states)
        return states

    # ---------------------------------------------------------------- one method per effect

    def effect_environ(self, e: Environ, c: Call, states: list) -> list:
        """What a wrapper does to its command's environment: a SetVar is one more assignment in
        the command's prefix, an UnsetVar a removal there, a Clear leaves the command only what
        follows (what came before is cleared too); a Keep changes nothing."""
        for t in e.transforms:
            kind = type(t)
            if kind is SetVar:
                a = self.word_assign(t.word, AssignMode.ENV)
                c.prefix.append(a)
                if c.reach is not None:
                    c.reach.drops.pop(a.name, None)
            elif kind is UnsetVar:
                self.rec.made += 1
                c.prefix.append(Assign(t.start, t.end, name=t.name, mode=AssignMode.ENV_UNSET))
            elif kind is Clear:
                if t.cause or c.reach is not None:
                    self.reach_clear(t, c)
                else:
                    c.clears = True
                    c.prefix = []
            elif kind is not Keep:
                self.reach_transform(t, c)
        return states

    def reach_clear(self, t: Clear, c: Call) -> None:
        """A clear that a later Pass may take names back from, or that a wrapper's own rules make
        (sudo's env_reset, srun --export, other nodes): the gates it drops are remembered."""
        reach = c.reach if c.reach is not None else Reach()
        c.reach = reach
        if not t.certain:
            reach.maybe.append(t)
            return
        before = reach.kept if c.clears else None
        if t.cause:
            for gate in G.GATES:
                origin = self.visible_gate(gate, c, before)
                if origin is not None and gate not in reach.drops:
                    reach.drops[gate] = (t, origin)
        reach.outer, reach.outer_prefix, reach.kept = before, c.prefix, frozenset()
        c.clears, c.prefix = True, []

    @staticmethod
    def visible_gate(gate: str, c: Call, kept) -> Optional[Assign]:
        """The assignment the command would see a gate from (its prefix's, else this shell's
        export when kept lets it pass: None every export), None when it sees none."""
        for a in reversed(c.prefix):
            if a.name == gate:
                return a if a.mode != AssignMode.ENV_UNSET else None
        var = c.s.vars.get(gate)
        if var is None or not var.exported or var.negated or var.val.kind == ValKind.UNSET:
            return None
        if kept is not None and gate not in kept:
            return None
        return var.origin

    def reach_transform(self, t, c: Call) -> None:
        """Pass, PassPrefix, SetText, Unreadable, InputArgs, DeepSpeedEnv: names taken back
        after a clear, values set, and what cannot be read."""
        reach = c.reach if c.reach is not None else Reach()
        c.reach = reach
        kind = type(t)
        if kind is Pass:
            self.reach_pass(t.name, c, reach)
        elif kind is PassPrefix:
            names = {n for n, v in c.s.vars.items() if v is not None and v.exported and n.startswith(t.prefixes)}
            names.update(a.name for a in reach.outer_prefix if a.name.startswith(t.prefixes))
            for name in sorted(names):
                self.reach_pass(name, c, reach)
        elif kind is SetText:
            a = self.text_assign(t.name, t.text, t.start, t.end)
            if t.yields and self.visible_gate(t.name, c, reach.kept if c.clears else None) is not None:
                a.value = Word([Opaque("srun --export=ALL", t.start, t.end)], t.start, t.end)
            c.prefix.append(a)
            reach.drops.pop(t.name, None)
        elif kind is Unreadable:
            reach.unknown = t.via
        elif kind is InputArgs:
            reach.input_args = t.replace
        elif kind is DeepSpeedEnv:
            lines = self.launching.deepspeed_env()
            if lines is None:
                reach.unseen_file = True
                return
            reach.env_lines = lines
            for name in lines:
                reach.drops.pop(name, None)

    @staticmethod
    def reach_pass(name: str, c: Call, reach) -> None:
        """One name of the wrapper's environment passes the last clear."""
        if not c.clears:
            return
        if reach.outer is None or name in reach.outer:
            reach.kept = reach.kept | {name}
        c.prefix.extend(a for a in reach.outer_prefix if a.name == name)
        reach.drops.pop(name, None)

    def text_assign(self, name: str, text: str, start: int, end: int) -> Assign:
        """The Assign of a literal NAME=value inside a word."""
        self.rec.made += 1
        value = Word([Lit(text, start, end)], start, end, "", text, text)
        name_start = max(start - len(name) - 1, 0)
        a = Assign(start, end, name=name, name_start=name_start, name_end=name_start + len(name),
                   value=value, mode=AssignMode.ENV, exported=True, eq_end=start,
                   decl_start=name_start, decl_end=end)
        return a

    def effect_set_value(self, e: SetValue, c: Call, states: list) -> list:
        """A name gets a value no assignment gives (an array's elements too); a readonly one
        keeps its value and the command fails."""
        for s in states:
            if e.name in s.readonly:
                s.status = FAILED
                continue
            exported = e.exported
            if exported is None:
                exported = s.vars.get(e.name, _NO_VAR).exported
            if e.local:
                s.save_local(e.name)
            s.removed.pop(e.name, None)
            s.set(e.name, Var(e.val, exported, None, e.array))
        return states

    def effect_assign_word(self, e: AssignWord, c: Call, states: list) -> list:
        """`export NAME=value` as a command (or `declare`'s, `local`'s: the mode)."""
        a = self.word_assign(e.word, e.mode)
        a.exported = e.exported
        a.keyword = e.keyword
        for s in states:
            self.assign(s, a)
        return states

    def effect_export(self, e: Export, c: Call, states: list) -> list:
        """`export NAME` / `export -n NAME` as a command."""
        return self.export_names(ExportNames(e.start, e.end, names=[(e.name, e.start, e.end)], negate=e.negate),
                                 states)

    def effect_unset(self, e: UnsetNames, c: Call, states: list) -> list:
        """`unset NAME...` as a command."""
        option = "f" if e.functions else "n" if e.namerefs else ""
        return self.unset_names(Unset(e.start, e.end, names=list(e.names), option=option), states)

    def effect_unread_names(self, e: UnreadNames, c: Call, states: list) -> list:
        """Exports of names packgate cannot read: the gates unknown after it (sourcing.unread)."""
        where = (e.start, e.end) if self.where.via is None else self.where.via
        out = []
        for k, s in enumerate(states):
            out.extend(self.sourcing.unread(s, where, UnfollowedKind.COMPUTED if k == 0 else None, e.detail))
        return out

    def effect_set_shell_option(self, e: SetOption, c: Call, states: list) -> list:
        """`set -e`, `set +u`, `set -o allexport`...: the path's option."""
        for s in states:
            setattr(s, e.option.value, e.on)
        return states

    def effect_new_positional(self, e: NewPositional, c: Call, states: list) -> list:
        """The positional parameters changed: what tests said of them goes; `set -- ARGS` gives
        the new ones, and `shift` moves those the script set."""
        for s in states:
            for f in s.facts:
                if f.name.isdigit():
                    s.forget(f.name)
            args = e.args
            if args is None and e.shift:
                var = s.vars.get("@")
                if var is None or var.array is None:
                    continue
                args = var.array
                if e.shift < 0:  # by a count the path does not know
                    args = (SOME_ARGS,)
                for _ in range(max(e.shift, 0)):
                    if args and args[0] is not CALLER_ARGS and args[0] is not SOME_ARGS:
                        args = args[1:]
                    elif args:
                        args = (SOME_ARGS,) + args[1:] if len(args) > 1 else (SOME_ARGS,)
                        break
            if args is not None:
                for name, var in positional_vars(tuple(args)).items():
                    s.save_local(name)
                    s.set(name, var)
        return states

    def effect_status(self, e: Status, c: Call, states: list) -> list:
        """The command's exit status."""
        for s in states:
            s.status = e.status
        return states

    def effect_stop(self, e: StopPath, c: Call, states: list) -> list:
        """The path stops here."""
        for s in states:
            s.done = e.how
        return states

    def effect_source_file(self, e: Source, c: Call, states: list) -> list:
        """`source FILE`: walked in this shell (sourcing.py)."""
        out = []
        for s in states:
            out.extend(self.sourcing.source(c.cmd, e.word, e.val, s))
        return out

    def effect_run_here(self, e: RunHere, c: Call, states: list) -> list:
        """`eval 'literal'`: the text walked in this shell."""
        return self.walker.block(self.kids.inner_script(e.word).body, states)

    def effect_run_child(self, e: RunChild, c: Call, states: list) -> list:
        """A string walked in a child shell (children.py)."""
        for s in states:
            if e.env is ChildEnv.COMMAND:
                self.kids.split_string(c, e.word, s)
            else:
                self.kids.shell_c(c, e.word, s, e.env)
        return states

    def effect_run_container(self, e: RunContainer, c: Call, states: list) -> list:
        """`docker run ... IMAGE CMD` (children.py)."""
        for s in states:
            self.kids.run_container(c, e, s)
        return states

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
        fdef = self.rec.functions.get(name)
        if fdef is None:
            return [s]
        self.rec.called[name] = None
        self.rec.looked_up.append(name)
        if not c.prefix:
            if self.inertness.inert(fdef.body):  # log(), die(): nothing to walk (but it may change variables)
                s.facts = ()
                return [s]
            args = []
            for w in c.words[c.i + 1:]:
                args.extend(self.evaluator.values(w, s))
            return self.walker.call(fdef, [s], args)
        child = s.fork()  # `X=1 f`: the prefix holds for the call only
        for a in c.prefix:
            self.assign(child, a) if a.mode != AssignMode.ENV_UNSET else child.drop(a.name)
        self.walker.call(fdef, [child])
        return [s]

    # ---------------------------------------------------------------- declarations

    def assignment(self, st: Assign, states: list) -> list:
        """NAME=value (plain, exported, declared or local) on every path: status 0 (a plain
        one with a command substitution: the substitution's, unknown here)."""
        status = quiet_status(st)
        local = st.mode == AssignMode.LOCAL
        for s in states:
            if local and not s.frames:  # `local` outside a function: an error, nothing assigned
                s.status = FAILED
                continue
            s.status = status
            self.assign(s, st)
        return states

    def export_names(self, st: ExportNames, states: list) -> list:
        """`export NAME...` marks the names exported; `export -n NAME` removes the mark;
        `readonly NAME` makes later changes fail."""
        for s in states:
            if st.local and not s.frames:  # `local` outside a function: an error, nothing declared
                s.status = FAILED
                continue
            s.status = OK
            if st.readonly:
                s.readonly = s.readonly | {name for name, _, _ in st.names}
            if st.attributes:
                declared = frozenset(name for name, _, _ in st.names)
                if "i" in st.attributes:
                    s.integers = s.integers | declared
                if "A" in st.attributes:
                    s.assocs = s.assocs | declared
            for name, _, _ in st.names:
                var = s.vars.get(name)
                if not st.exports:
                    continue
                if st.negate:
                    if var is not None:
                        s.set(name, var._replace(exported=False, negated=True))
                        s.removed[name] = (st.start, st.end)
                else:
                    # `export X` after `export -n X` exports it again: the mark is gone
                    s.set(name, var._replace(exported=True, negated=False) if var is not None else
                          Var(UNSET, True, None))
        return states

    def unset_names(self, st: Unset, states: list) -> list:
        """`unset NAME...` removes the variables (an overwrite of their assignments); `-f` the
        functions instead, `-n` namerefs (none here); a readonly name stays, status 1."""
        if "f" in st.option:
            for name, _, _ in st.names:
                if name in self.rec.functions:
                    self.rec.fn_version += 1
                    self.rec.define(Define(name, None, [], None))
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
                    self.overwrite(old.origin, st, old.exported)
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
        declared = attributes(a.keyword) if a.keyword else ""
        if a.mode == AssignMode.READONLY or "r" in declared:
            s.readonly = s.readonly | {a.name}
        if declared:
            if "i" in declared and a.name not in s.integers:
                s.integers = s.integers | {a.name}
            if "A" in declared and a.name not in s.assocs:
                s.assocs = s.assocs | {a.name}
        array = keys = None
        if value is None and (a.index is not None or a.keys is not None):
            array, keys, value = self.elements(s, a, old)
        elif value is None:
            if a.array is not None:
                elems = []
                cache = self.evaluator.sourced_literals if self.where.sourced else self.evaluator.literals
                for w in a.array:
                    if w.text is not None:  # a literal element: its value is computed once
                        v = cache.get(w)
                        elems.append(v if v is not None else self.evaluator.value(w, s))
                    else:
                        elems.extend(self.evaluator.values(w, s))
                array = tuple(elems)
                if a.append and old is not None and old.array is not None:
                    array = old.array + array
                value = array[0] if array else Val(_KNOWN, "")
            elif a.value is None:
                value = Val(_KNOWN, "", lit=(a.eq_end, a.eq_end), span=(a.eq_end, a.eq_end))
            else:
                value = self.evaluator.value(a.value, s)
                if a.append and old is not None:
                    value = concat([old.val, value])
            if a.name in s.integers and mode_evaluates(a.mode) and array is None:
                value = self.integer(value, a, old, s)
            if array is None and old is not None and old.array is not None and a.mode == AssignMode.PLAIN:
                # `A=x` on an array sets its element 0 and keeps the others
                array, keys = with_element(old, "0", value, a.name in s.assocs)
        mode = a.mode
        exported = a.exported or s.allexport or (old is not None and old.exported)
        if mode == AssignMode.LOCAL or (mode == AssignMode.DECLARE and s.frames and "g" not in a.keyword):
            s.save_local(a.name)  # local / declare in a function: undone on return
        s.removed.pop(a.name, None)
        if old is not None and old.origin is not None and mode != AssignMode.PREFIX:
            self.overwrite(old.origin, a, old.exported)
        s.set(a.name, Var(value, exported, a, array, False, keys))
        if a.name in G.GATES or a.name in G.OTHER_VARS:
            self.rec.gate_sites.setdefault(a, GateSite(a, value))
            if a.file is not None and self.where.via is not None:
                self.rec.sourced_at.setdefault(a, self.where.via)

    def elements(self, s: State, a: Assign, old: Optional[Var]) -> tuple:
        """(elements, keys, the value `$NAME` gives) after `A[key]=v` or `A=([key]=v ...)`: an
        element at a key the path cannot tell makes the whole array unknown."""
        assoc = a.name in s.assocs
        if a.index is not None:
            key = self.evaluator.subscript_key(a.name, a.index, s)
            val = self.evaluator.value(a.value, s) if a.value is not None else Val(_KNOWN, "")
            if key is not None and a.append:
                prior = element_of(old, key) if old is not None else None
                val = concat([prior, val]) if prior is not None else val
            if key is None or (old is not None and old.val.kind == ValKind.UNKNOWN and old.array is None):
                unknown = Val(ValKind.UNKNOWN, via=f"{a.name}[...]", origin=Origin.UNKNOWN)
                return None, None, unknown
            base = old if not (old is not None and a.mode == AssignMode.PREFIX) else None
            elems, keys = with_element(base, key, val, assoc)
        else:
            keyed = dict(a.keys)
            start = None if not a.append or old is None else old
            elems, keys = (start.array or (start.val,), start.keys) if start is not None else ((), None)
            var = Var(UNSET, False, None, elems, False, keys) if elems else None
            nxt = 0 if var is None else 1 + max((int(k) for k in (keys or map(str, range(len(elems))))
                                                 if k.lstrip("-").isdigit()), default=-1)
            for i, w in enumerate(a.array):
                key_word = keyed.get(i)
                if key_word is not None:
                    key = self.evaluator.subscript_key(a.name, key_word, s)
                    if key is None:
                        return None, None, Val(ValKind.UNKNOWN, via=f"{a.name}[...]", origin=Origin.UNKNOWN)
                elif assoc:
                    continue  # bash refuses an element without a key in an associative array
                else:
                    key = str(nxt)
                if not assoc:
                    nxt = int(key) + 1
                elems, keys = with_element(var, key, self.evaluator.value(w, s), assoc)
                var = Var(UNSET, False, None, elems, False, keys)
            if var is None:
                return (), None, Val(_KNOWN, "")
        first = element_of(Var(UNSET, False, None, elems, False, keys), "0")
        return elems, keys, first if first is not None else Val(_KNOWN, "")

    def integer(self, value: Val, a: Assign, old: Optional[Var], s: State) -> Val:
        """What a `declare -i` variable gets: the value evaluated arithmetically (`+=` adds)."""
        if value.kind != _KNOWN:
            return Val(ValKind.UNKNOWN, via=a.name, origin=Origin.UNKNOWN)
        text = value.text
        if a.append and old is not None and old.val.kind == _KNOWN:
            text = old.val.text + "+(" + value.text[len(old.val.text):] + ")"
        n, _ = evaluate(text, self.evaluator.arith_lookup(s))
        if n is None:
            return Val(ValKind.UNKNOWN, via=a.name, origin=Origin.UNKNOWN)
        return Val(_KNOWN, str(n), span=value.span, foreign=value.foreign)

    def overwrite(self, origin: Assign, by, exported: bool = False) -> None:
        """A gate's assignment, or an exported variable's (the launch contract reads any), replaced
        (or unset) by `by`."""
        if (exported or origin.name in G.GATES) and origin not in self.rec.overwrites:
            self.rec.overwrites[origin] = Overwrite(origin, by)
            if len(self.where.file_stack) > 1 and self.where.via is not None:  # `by` is in a sourced file
                self.rec.overwritten_in[by] = (self.where.file_stack[-1], self.where.via)

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
        self.rec.made += 1
        a = Assign(word.start, word.end, name=name, name_start=base, name_end=name_end,
                   value=value, mode=mode, exported=True, eq_end=eq_end,
                   decl_start=word.start, decl_end=word.end)
        if name in G.GATES:
            self.rec.extra_occ.append(Occurrence(name, base, name_end, mode))
        return a


_NO_VAR = Var(UNSET, False, None)
# assignments a `declare -i` name evaluates (a command's prefix too; `${X:=d}` is not one here)
_EVALUATING = frozenset((AssignMode.PLAIN, AssignMode.EXPORT, AssignMode.DECLARE, AssignMode.LOCAL,
                         AssignMode.READONLY, AssignMode.PREFIX))


def mode_evaluates(mode: str) -> bool:
    """Whether an assignment of this mode to an integer variable is evaluated arithmetically."""
    return mode in _EVALUATING

# effect type -> the Applier method that applies it
EFFECTS = {
    Environ: Applier.effect_environ,
    SetValue: Applier.effect_set_value,
    AssignWord: Applier.effect_assign_word,
    Export: Applier.effect_export,
    UnsetNames: Applier.effect_unset,
    UnreadNames: Applier.effect_unread_names,
    SetOption: Applier.effect_set_shell_option,
    NewPositional: Applier.effect_new_positional,
    Status: Applier.effect_status,
    StopPath: Applier.effect_stop,
    Source: Applier.effect_source_file,
    RunHere: Applier.effect_run_here,
    RunChild: Applier.effect_run_child,
    RunContainer: Applier.effect_run_container,
}
