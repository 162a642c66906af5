"""Applying what commands do to the paths: the walk's half of ShellCheck's CFGAnalysis.hs. A
command's handler (commands.COMMANDS) returns its effects (effects.py); this module applies them,
one method per kind of effect (EFFECTS), and knows no command's name. What an assignment does to
a path is declare.py's; a launch, a `source` and a child shell are handed to their parts."""

from __future__ import annotations

from .. import gates as G
from ..parse.model import Assign, AssignMode, Command, Opaque, Word
from .commands import COMMANDS, Call, Reach, base_name, test
from .declare import DECLARATIONS
from .effects import (AsCommand, AssignWord, ChildEnv, Declare, Environ, NewPositional, Next, RunChild, RunContainer,
                      Option, RunHere, SetOption, SetValue, Source, Status, StopPath, UnreadNames, UnsetNames)
from .environ import (Clear, DeepSpeedEnv, InputArgs, Keep, Pass, PassPrefix, SetText, SetVar, Unreadable,
                      UnsetVar)
from .facts import Stop, UnfollowedKind, ValKind, Var, keeps_export
from .sourcing import note_unfollowed
from .state import FAILED, State
from .values import CALLER_ARGS, SOME_ARGS, LazyValues, positional_vars

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_KNOWN = ValKind.KNOWN
_NEXT, _AS_COMMAND = object(), object()  # apply()'s answers: the next word is the command; it runs as one


class Applier:
    """The walk's commands and declarations: a command's effects applied to its path. It knows no
    command's name; a launch, a `source` and a child shell are handed to their parts."""

    def __init__(self, inp, where, rec, evaluator, inertness, walker, declarations) -> None:
        self.inp, self.where, self.rec, self.evaluator, self.inertness = inp, where, rec, evaluator, inertness
        self.walker, self.declarations = walker, declarations
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

    def declaration(self, st, states: list) -> list:
        """A declaration the parser knows (`export NAME`, `unset`, `set -a`, `exit`...): its
        effects (declare.DECLARATIONS) on every path."""
        for e in DECLARATIONS[type(st)](st):
            states = EFFECTS[type(e)](self, e, None, states)
        return states

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
                a = self.declarations.word_assign(t.word, AssignMode.ENV)
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
            a = self.declarations.text_assign(t.name, t.text, t.start, t.end)
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

    def effect_set_value(self, e: SetValue, c: Call, states: list) -> list:
        """A name gets a value no assignment gives (an array's elements too); a readonly one
        keeps its value and the command fails."""
        for s in states:
            if e.name in s.readonly:
                s.status = FAILED
                continue
            exported = e.exported
            if exported is None:
                exported = keeps_export(s.vars.get(e.name))
            if e.local:
                s.save_local(e.name)
            s.removed.pop(e.name, None)
            s.set(e.name, Var(e.val, exported, None, e.array))
        return states

    def effect_assign_word(self, e: AssignWord, c: Call, states: list) -> list:
        """`export NAME=value` as a command (or `declare`'s, `local`'s: the mode)."""
        a = self.declarations.word_assign(e.word, e.mode)
        a.exported = e.exported
        a.keyword = e.keyword
        for s in states:
            self.declarations.assign(s, a)
        return states

    def effect_declare(self, e: Declare, c: Optional[Call], states: list) -> list:
        """Names declared without a value (declare.py)."""
        return self.declarations.declare(e, states)

    def effect_unset(self, e: UnsetNames, c: Optional[Call], states: list) -> list:
        """`unset NAME...` (declare.py)."""
        return self.declarations.unset(e, states)

    def effect_unread_names(self, e: UnreadNames, c: Call, states: list) -> list:
        """Exports of names packgate cannot read: the gates unknown after it (sourcing.unread)."""
        where = (e.start, e.end) if self.where.via is None else self.where.via
        kind = e.kind or (UnfollowedKind.COMPUTED if e.exports else UnfollowedKind.ASSIGNED)
        if e.noted_only:
            note_unfollowed(self.rec, where, kind, e.detail)
            return states
        out = []
        for k, s in enumerate(states):
            out.extend(self.sourcing.unread(s, where, kind if k == 0 else None, e.detail, e.exports))
        return out

    def effect_set_shell_option(self, e: SetOption, c: Optional[Call], states: list) -> list:
        """`set -e`, `set +u`, `set -o allexport`...: the path's option."""
        option, on = e.option, e.on
        for s in states:
            if option is Option.ERREXIT:
                s.errexit = on
            elif option is Option.NOUNSET:
                s.nounset = on
            else:
                s.allexport = on
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

    def effect_status(self, e: Status, c: Optional[Call], states: list) -> list:
        """The command's exit status."""
        for s in states:
            s.status = e.status
        return states

    def effect_stop(self, e: StopPath, c: Optional[Call], states: list) -> list:
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
            self.declarations.assign(child, a) if a.mode != AssignMode.ENV_UNSET else child.drop(a.name)
        self.walker.call(fdef, [child])
        return [s]


# effect type -> the Applier method that applies it
EFFECTS = {
    Environ: Applier.effect_environ,
    SetValue: Applier.effect_set_value,
    AssignWord: Applier.effect_assign_word,
    Declare: Applier.effect_declare,
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
