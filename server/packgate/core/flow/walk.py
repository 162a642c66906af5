"""The walk: blocks, if, case, && / ||, loops, subshells and function calls over a list of
paths, merging the paths that end up the same and pruning past MAX_PATHS. It knows no command:
what a command or declaration does is commands.py's (the walk calls the method STATEMENTS
names for each model type; ShellCheck's CFGAnalysis.hs is the model)."""

from __future__ import annotations

from itertools import islice
from typing import Optional

from .. import gates as G
from ..parse.model import (AndOr, Assign, AssignMode, Block, Case, Command, Exit, ExportNames, FuncDef, If, Loop,
                           SetOpt, Sub, Unset)
from .facts import UNSET, Label, LabelKind, Lost, Stop, Val, ValKind, Var, and_or_label
from .incremental import Define, LostEntry

MAX_PATHS = 16  # distinct paths kept per statement; a launch rarely has more than 3 that differ
MAX_CALL_DEPTH = 8
# statements walked inside the function calls of one top-level statement: a launcher's stage
# function walks a few dozen; calls that fan out (each body calling several others, eight
# deep) would otherwise take minutes
MAX_CALL_STEPS = 20_000
MAX_LOOP_ITEMS = 8
_LOOP_ENDS = (Stop.BREAK, Stop.CONTINUE)  # end an iteration, not the script

# model type -> the Flow method that walks it (walk.py's for the compound statements,
# commands.py's for commands and declarations); Opaque_ and unknown types change nothing
STATEMENTS = {
    Assign: "assignment",
    Command: "command",
    ExportNames: "export_names",
    Unset: "unset_names",
    SetOpt: "set_option",
    Exit: "exit_statement",
    Block: "block",
    If: "if_",
    Case: "case",
    AndOr: "and_or",
    Loop: "loop",
    Sub: "sub",
    FuncDef: "define_function",
}


class Walker:
    """The walk over paths (a part of flow.analysis.Flow; `statements` is STATEMENTS resolved)."""

    statements: dict = {}

    def block(self, block: Block, states: list) -> list:
        """The statements of a block, in order, while any path is live."""
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
        dead = [s for s in states if s.done and s.done != Stop.EXIT]
        states = dead + self.stmt(stmt, live)
        if len(states) > MAX_PATHS // 2:
            states = self.prune(states)
        return states

    def stmt(self, st, states: list) -> list:
        """One statement on the given paths."""
        walk = self.statements.get(type(st))
        return walk(self, st, states) if walk is not None else states

    @staticmethod
    def merge(states: list) -> list:
        """Collapse paths that ended up identical (most branches change nothing that matters)."""
        if len(states) < 2:
            return states
        out: list = []
        groups: dict = {}
        for s in states:
            if s.done == Stop.EXIT:
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
        """merge(), then past MAX_PATHS one path per distinct gate values (truncated past that)."""
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

    def label(self, offset: int, key: str) -> Label:
        """A branch decision at offset, shown in this script: inside a sourced file, at its
        `source` command (a path label's line is read in this script)."""
        return Label(offset if self.via is None else self.via[0], key)

    # ---------------------------------------------------------------- compound statements

    def and_or(self, st: AndOr, states: list) -> list:
        """left && right, left || right: right runs on a path of its own."""
        out = []
        for s in self.block(st.left, states):
            if s.done:
                out.append(s)
                continue
            ran = s.fork(self.label(st.op_start, and_or_label(st.op, True)))
            skipped = s.fork(self.label(st.op_start, and_or_label(st.op, False)))
            out.extend(self.block(st.right, [ran]))
            out.append(skipped)
        return self.merge(out)

    def loop(self, st: Loop, states: list) -> list:
        """while / until / for: the body runs (once stands for any number) or does not."""
        if st.cond is not None:
            states = self.block(st.cond, states)
        if st.var and st.items is not None:
            return self.for_items(st, states)
        ran = self.block(st.body, [s.fork(self.label(st.start, LabelKind.LOOP_RAN)) for s in states if not s.done])
        skipped = [s.fork(self.label(st.start, LabelKind.LOOP_SKIPPED)) for s in states]
        for s in ran:
            if s.done in _LOOP_ENDS:
                s.done = Stop.NONE
        return self.merge(skipped + ran)

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
            if any(v.kind == ValKind.UNKNOWN for v in values) or len(values) > MAX_LOOP_ITEMS:
                values = [Val(ValKind.UNKNOWN, via=st.var)]
            if not values:
                out.append(s.fork(self.label(st.start, LabelKind.LOOP_SKIPPED)))
            for v in values:
                child = s.fork(self.label(st.start, LabelKind.LOOP_RAN))
                child.set(st.var, Var(v, child.vars.get(st.var, Var(UNSET, False, None)).exported, None))
                children.append(child)
        # one walk of the body for every pass at once: nested loops cost depth, not items**depth
        runs = self.block(st.body, self.prune(children)) if children else []
        for r in runs:
            if r.done in _LOOP_ENDS:
                r.done = Stop.NONE
        return self.merge(out + runs)

    def if_(self, st: If, states: list) -> list:
        """if / elif / else: each clause's body on the paths whose conditions got there."""
        out = []
        pending = states
        for idx, (cond, body, kw) in enumerate(st.clauses):
            pending = self.block(cond, pending)
            taken = [s.fork(self.label(kw, LabelKind.THEN if idx == 0 else LabelKind.ELIF))
                     for s in pending if not s.done]
            out.extend(self.block(body, taken))
            out.extend(s for s in pending if s.done)
            pending = [s for s in pending if not s.done]
        if st.otherwise is not None:
            out.extend(self.block(st.otherwise, [s.fork(self.label(st.else_start, LabelKind.ELSE)) for s in pending]))
        else:
            out.extend(s.fork(self.label(st.start, LabelKind.NO_BRANCH)) for s in pending)
        return self.merge(out)

    def case(self, st: Case, states: list) -> list:
        """case: each pattern's body on a path of its own (and none matched, without `*)`)."""
        out = []
        for pattern, body, start in st.items:
            out.extend(self.block(body, [s.fork(self.label(start, LabelKind.CASE + pattern)) for s in states]))
        if not st.has_default:
            out.extend(s.fork(self.label(st.start, LabelKind.CASE_NONE)) for s in states)
        return self.merge(out)

    def sub(self, st: Sub, states: list) -> list:
        """A subshell, background job, pipeline stage or command substitution: walked on
        copies; the exports it makes without launching are lost."""
        if self.inert(st.body):  # `$(date +%F)`, `( cd dir && ls )`: nothing a check can see
            return states
        launched_before = self.sub_launches
        marker = len(self.gate_sites)
        self.block(st.body, [s.fork() for s in states])
        if self.sub_launches == launched_before:
            # gate exports made inside never reach a launch: remember them as lost
            for a, _ in islice(self.gate_sites.values(), marker, None):
                if a.exported or a.mode == AssignMode.EXPORT:
                    self.lose(a, st)
                    for s in states:
                        s.lost[a.name] = Lost(a, st)
        return states

    def lose(self, a: Assign, where: Sub) -> None:
        """An export that never reaches a launch (made in a subshell or child shell)."""
        self.lost_entry(LostEntry(a, Lost(a, where)))

    # ---------------------------------------------------------------- functions

    def define_function(self, st: FuncDef, states: list) -> list:
        """name() { ... }: defined here, walked where it is called."""
        if self.functions.get(st.name) is not st:
            self.fn_version += 1  # the table inert() reads changed (a definition run again did not)
        self.define(Define(st.name, st, [s.fork() for s in states[:4]], None))
        return states

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
        self.bind_args(fdef, states, args)
        try:
            out = self.block(fdef.body, states)
        finally:
            self.call_depth -= 1
            self.calling.pop()
        for s in out:
            if s.done == Stop.RETURN:
                s.done = Stop.NONE
            if s.frames:
                for name, old in s.frames[-1].items():
                    if old is None:
                        s.drop(name)
                    else:
                        s.set(name, old)
                s.frames = s.frames[:-1]
        return out

    def bind_args(self, fdef: FuncDef, states: list, args: Optional[list]) -> None:
        """A new frame on each path, with the positional parameters the body reads bound."""
        binds = self.uses_args(fdef)
        for s in states:
            s.frames = s.frames + ({},)
            for idx in binds:
                s.save_local(str(idx))
                val = args[idx - 1] if args is not None and idx <= len(args) else None
                if val is not None:
                    s.set(str(idx), Var(val, False, None))
                elif args is not None:
                    s.set(str(idx), Var(Val(ValKind.KNOWN, ""), False, None))
                else:
                    s.drop(str(idx))

