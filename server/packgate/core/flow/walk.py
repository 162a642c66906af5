"""The walk: blocks, if, case, && / ||, subshells and function calls over a list of paths (loops
are loops.py's), merging the paths that end up the same and pruning past MAX_PATHS. It knows no
command: what a command does is the effects commands.py's table returns, and a declaration's
those declare.py's gives, both applied by apply.py (the walker calls what `statements` holds for
each model type; ShellCheck's CFGAnalysis.hs is the model)."""

from __future__ import annotations

from itertools import islice

from .. import gates as G
from ..parse.model import (AndOr, Assign, AssignMode, Block, Case, Command, Exit, ExportNames, FuncDef, If, Loop,
                           SetOpt, Sub, SubKind, Unset)
from .commands import quiet_status
from .patterns import case_covers, case_match
from .facts import Label, LabelKind, Lost, Origin, Stop, Val, ValKind, Var, and_or_label
from .record import Define, LostEntry
from .state import FAILED, OK, Tested, is_known, learnt

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

MAX_PATHS = 16  # distinct paths kept per statement; a launch rarely has more than 3 that differ
MAX_VALUE_MERGE = 4  # Walker.merge compares paths by value only among this many
MAX_CALL_DEPTH = 8
# statements walked inside the function calls of one top-level statement: a launcher's stage
# function walks a few dozen; calls that fan out (each body calling several others, eight
# deep) would otherwise take minutes
MAX_CALL_STEPS = 20_000
# statements whose failure ends the path under `set -e` (a list, an if or a loop fails only
# through a command inside, which is checked where it runs)
_ERREXIT_ENDS = frozenset((Command, Assign, ExportNames, Unset, Sub))
# (an enum's member read off its class is slow: values.py says why)
_EXIT, _RETURN, _BACKGROUND = Stop.EXIT, Stop.RETURN, SubKind.BACKGROUND
_TEST_LABEL, _CASE_LABEL = LabelKind.TEST, LabelKind.CASE



class Walker:
    """The walk over paths. It applies no command itself: `statements` maps each model type of a
    simple command or declaration to the applier's method (connect()), the compound ones to its own."""

    def __init__(self, inp, where, rec, evaluator, inertness) -> None:
        self.inp, self.where, self.rec, self.evaluator, self.inertness = inp, where, rec, evaluator, inertness
        # model type -> the method that walks it; Opaque_ and unknown types change nothing
        self.statements: dict = {Block: self.group, If: self.if_, Case: self.case, AndOr: self.and_or,
                                 Sub: self.sub, FuncDef: self.define_function}

    def connect(self, applier, declarations, loops) -> None:
        """The applier walks the simple commands, declare.py the declarations, loops.py the loops."""
        self.together = declarations.together
        self.statements.update({Command: applier.command, Loop: loops.loop, Assign: declarations.assignment,
                                ExportNames: applier.declaration, Unset: applier.declaration,
                                SetOpt: applier.declaration, Exit: applier.declaration})

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
        if self.inertness.skippable(stmt):
            status = quiet_status(stmt)
            for s in states:
                if not s.done:
                    s.status = status
                    if s.facts:  # a variable no check reads changed, or a function ran
                        self.forget_skipped(stmt, s)
            if status == FAILED and not self.where.no_errexit:
                self.errexit(states)
            return states
        if self.where.loop_depth:  # a loop's extra passes: what they cost is statements times paths
            self.where.call_steps += len(states)
        elif self.where.calling:
            self.where.call_steps += 1
        if len(states) == 1 and not states[0].done:  # the common case: one live path
            live, dead = states, []
        else:
            live = [s for s in states if not s.done]
            if not live:
                return None
            # paths that stopped wait: return/break for their frame, `exit` for the end of the
            # script, which is judged only when it has no launch (once one is seen, they go)
            if self.rec.launches:
                dead = [s for s in states if s.done and s.done != _EXIT]
            else:
                dead = [s for s in states if s.done]
        after = self.stmt(stmt, live)
        if not self.where.no_errexit and type(stmt) in _ERREXIT_ENDS:
            self.errexit(after)
        states = dead + after
        if len(states) > MAX_PATHS // 2:
            states = self.prune(states)
        return states

    def forget_skipped(self, stmt, s) -> None:
        """What a path's tests said no longer holds after a statement stepped over changed it."""
        if type(stmt) is Assign:
            s.forget(stmt.name)
        elif stmt.words and stmt.words[0].text in self.rec.functions:
            s.forget_all()

    @staticmethod
    def errexit(states: list) -> None:
        """`set -e`: a command known to fail ends its path (step() calls it only outside the
        places bash suspends errexit: a condition, a command of an && / || list but the last,
        after `!`)."""
        for s in states:
            if s.errexit and s.status == FAILED and not s.done:
                s.done = Stop.EXIT

    def suspended(self, block: Block, states: list) -> list:
        """A block walked where bash suspends errexit."""
        self.where.no_errexit += 1
        try:
            return self.block(block, states)
        finally:
            self.where.no_errexit -= 1

    def group(self, block: Block, states: list) -> list:
        """A nested block (a `{ ...; }` group, a pipeline, one declaration's assignments);
        `! cmd` inverts its status."""
        if block.together:
            return self.together(block.body, states)
        if not block.negate:
            return self.block(block, states)
        out = self.suspended(block, states)
        for s in out:
            if not s.done:
                s.status = (FAILED if s.status == OK else OK) if is_known(s.status) else None
        return out

    def stmt(self, st, states: list) -> list:
        """One statement on the given paths."""
        walk = self.statements.get(type(st))
        return walk(st, states) if walk is not None else states

    @staticmethod
    def merge(states: list) -> list:
        """Collapse paths that ended up identical (most branches change nothing that matters)."""
        if len(states) < 2:
            return states
        out: list = []
        groups: dict = {}
        # the same Vars (the mark says so cheaply), or equal ones made apart after a fork: left
        # apart, such paths would be walked twice to the end of the script. Compared by value
        # only among a few paths: among many, most differ and the pairs cost more than they save
        by_value = len(states) <= MAX_VALUE_MERGE
        for s in states:
            group = groups.setdefault((s.done, s.status) if by_value else (s.mark, s.done, s.status), [])
            for o in group:
                if (by_value or s.mark == o.mark) and s.same_values(o):
                    if o.facts != s.facts:  # what both paths know holds after them
                        o.facts = tuple(f for f in o.facts if f in s.facts)
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
                self.rec.truncated = True
                slim = slim[:MAX_PATHS]
            out = slim
        return out

    def decision(self, status, holds: bool, offset: int, kind: LabelKind) -> Label:
        """The label of one side of a fork on a status: what the test said when a test decided
        it (`when $PACK is empty`), else kind."""
        if type(status) is Tested:
            fact = learnt(status, holds)
            return self.label(offset, _TEST_LABEL, name=fact.name, said=fact.kind, against=fact.against)
        return self.label(offset, kind)

    def label(self, offset: int, kind: LabelKind, **details: str) -> Label:
        """A branch decision at offset, shown in this script: inside a sourced file, at its
        `source` command (a path label's line is read in this script)."""
        return Label(offset if self.where.via is None else self.where.via[0], kind, **details)

    # ---------------------------------------------------------------- compound statements

    def and_or(self, st: AndOr, states: list) -> list:
        """left && right, left || right: right runs when left's status says so; an unknown
        status forks a path where it ran and one where it did not."""
        out = []
        on_ok = st.op == "&&"  # && runs right after a success, || after a failure
        for s in self.suspended(st.left, states):
            if s.done:
                out.append(s)
            elif not is_known(s.status):
                ran = s.fork(self.decision(s.status, on_ok, st.op_start, and_or_label(st.op, True)))
                skipped = s.fork(self.decision(s.status, not on_ok, st.op_start, and_or_label(st.op, False)))
                ran.learn(s.status, on_ok)
                skipped.learn(s.status, not on_ok)
                ran.status, skipped.status = (OK, FAILED) if on_ok else (FAILED, OK)
                out.extend(self.block(st.right, [ran]))
                out.append(skipped)
            elif (s.status == OK) == on_ok:
                out.extend(self.block(st.right, [s]))
            else:
                out.append(s)
        return self.merge(out)

    def decide(self, states: list, at: int, yes: Optional[LabelKind], no: Optional[LabelKind],
               on_ok: bool = True) -> tuple:
        """Split paths on the status a condition left: (taken, not taken, stopped). A known
        status takes one side without a label; an unknown one forks both, labelled (a side
        whose kind is None: unlabelled)."""
        taken, rest, stopped = [], [], []
        for s in states:
            if s.done:
                stopped.append(s)
            elif not is_known(s.status):
                t, r = s.fork(self.label(at, yes) if yes else None), s.fork(self.label(at, no) if no else None)
                t.learn(s.status, on_ok)
                r.learn(s.status, not on_ok)
                t.status, r.status = (OK, FAILED) if on_ok else (FAILED, OK)
                taken.append(t)
                rest.append(r)
            elif (s.status == OK) == on_ok:
                taken.append(s)
            else:
                rest.append(s)
        return taken, rest, stopped

    def if_(self, st: If, states: list) -> list:
        """if / elif / else: each clause's body on the paths whose conditions got there."""
        out = []
        pending = states
        for idx, (cond, body, kw) in enumerate(st.clauses):
            taken, pending, stopped = self.decide(self.suspended(cond, pending), kw,
                                                  LabelKind.THEN if idx == 0 else LabelKind.ELIF, None)
            out.extend(self.block(body, taken))
            out.extend(stopped)
        if st.otherwise is not None:
            out.extend(self.block(st.otherwise, [s.fork(self.label(st.else_start, LabelKind.ELSE)) for s in pending]))
        else:
            for s in pending:
                s = s.fork(self.label(st.start, LabelKind.NO_BRANCH))
                s.status = OK  # an if that took no branch returns 0
                out.append(s)
        return self.merge(out)

    def case(self, st: Case, states: list) -> list:
        """case: each arm's body on the paths whose subject its pattern may match (a subject
        the path knows picks one; an unknown one forks); none matched, without `*)`. `;&` runs
        the next arm's body too, `;;&` goes on testing the patterns after it."""
        out, falling, retesting = [], [], []
        fresh = [(s, self.case_subject(st, s)) for s in states]  # matched no pattern so far
        written = st.subject.raw if st.subject is not None and st.subject.raw else ""
        for idx, (pattern, body, start) in enumerate(st.items):
            label = self.label(start, _CASE_LABEL, pattern=pattern, subject=written)
            # a plain pattern an earlier one matches is reached only by `;;&`
            shadowed = any(case_covers(q, pattern) for q, _, _ in st.items[:idx])
            entering: list = []
            fresh = case_enter(pattern, label, fresh, entering, shadowed)
            retesting = case_enter(pattern, label, retesting, entering, False)
            subjects = {subject for _, subject in entering}
            after = self.block(body, [s for s, _ in entering] + falling)
            falling = []
            end = st.ends[idx] if idx < len(st.ends) else ";;"
            going = [s for s in after if not s.done]
            out.extend(s for s in after if s.done)
            if end == ";&":
                falling = going
            elif end == ";;&":
                subject = subjects.pop() if len(subjects) == 1 else None
                retesting.extend((s, subject) for s in going)
            else:
                out.extend(going)
        out.extend(falling)
        out.extend(s for s, _ in retesting)
        for s, _ in fresh:
            s = s.fork(self.label(st.start, LabelKind.CASE_NONE))
            s.status = OK  # a case that matched nothing returns 0
            out.append(s)
        return self.merge(out)

    def case_subject(self, st: Case, s) -> Optional[str]:
        """The text of the case's subject when the path knows it (a word that reads a gate or
        assigns is not evaluated here)."""
        word = st.subject
        if word is None or word.effects:
            return None
        val = self.evaluator.value(word, s)
        return val.text if val.kind == ValKind.KNOWN else None

    def sub(self, st: Sub, states: list) -> list:
        """A subshell, background job, pipeline stage or command substitution: walked on
        copies; the exports it makes without launching are lost."""
        status = OK if st.kind == _BACKGROUND else None  # `cmd &` returns 0 at once
        for s in states:
            s.status = status
        if self.inertness.inert(st.body):  # `$(date +%F)`, `( cd dir && ls )`: nothing a check can see
            return states
        launched_before = self.rec.sub_launches
        marker = len(self.rec.gate_sites)
        self.block(st.body, [s.fork() for s in states])
        if self.rec.sub_launches == launched_before:
            # gate exports made inside never reach a launch: remember them as lost
            for a, _ in islice(self.rec.gate_sites.values(), marker, None):
                if a.exported or a.mode == AssignMode.EXPORT:
                    self.lose(a, st)
                    for s in states:
                        s.lost[a.name] = Lost(a, st)
        return states

    def lose(self, a: Assign, where: Sub) -> None:
        """An export that never reaches a launch (made in a subshell or child shell)."""
        self.rec.lost_entry(LostEntry(a, Lost(a, where)))

    # ---------------------------------------------------------------- functions

    def define_function(self, st: FuncDef, states: list) -> list:
        """name() { ... }: defined here, walked where it is called."""
        self.rec.looked_up.append(st.name)  # whether it is defined again depends on the last definition
        if self.rec.functions.get(st.name) is not st:
            self.rec.fn_version += 1  # the table inert() reads changed (a definition run again did not)
        self.rec.define(Define(st.name, st, [s.fork() for s in states[:4]], None))
        return states

    def call(self, fdef: FuncDef, states: list, args: Optional[list] = None) -> list:
        """Run a function body where it is called; locals and $1.. are undone on return.

        A function that calls itself (directly or through others) is not walked again inside
        its own call: the walk already sees what its body does, and a body with two calls of
        itself (a half-typed `}` makes one of any helper) would cost 2**depth walks. Past
        MAX_CALL_STEPS statements walked in the calls of one top-level statement, its further
        calls are not walked (truncated)."""
        if self.where.call_depth >= MAX_CALL_DEPTH or any(f is fdef for f in self.where.calling):
            return states
        if self.where.call_steps > MAX_CALL_STEPS:
            self.rec.truncated = True
            return states
        self.where.calling.append(fdef)
        self.where.call_depth += 1
        self.bind_args(fdef, states, args)
        try:
            out = self.block(fdef.body, states)
        finally:
            self.where.call_depth -= 1
            self.where.calling.pop()
        for s in out:
            if s.done == _RETURN:
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
        binds = self.inertness.uses_args(fdef)
        every = len(binds) == 9  # it reads "$@": the call's words are its positional parameters
        for s in states:
            s.frames = s.frames + ({},)
            if "@" in s.vars or (every and args is not None):  # the caller's `set --` is not the call's
                s.save_local("@")
                if every and args is not None:
                    s.set("@", Var(Val(ValKind.UNKNOWN, via="$@", origin=Origin.UNKNOWN), False, None, tuple(args)))
                else:
                    s.drop("@")
            for idx in binds:
                s.save_local(str(idx))
                val = args[idx - 1] if args is not None and idx <= len(args) else None
                if val is not None:
                    s.set(str(idx), Var(val, False, None))
                elif args is not None:
                    s.set(str(idx), Var(Val(ValKind.KNOWN, ""), False, None))
                else:
                    s.drop(str(idx))


def case_enter(pattern: str, label: Label, testing: list, entering: list, shadowed: bool) -> list:
    """The paths of testing (with their subjects) that enter the arm of pattern go to
    entering (forked and labelled when the match is not known); returns those that go on."""
    still = []
    for s, subject in testing:
        match = case_match(pattern, subject)
        if match is None and shadowed:
            match = False
        if match is None:
            entering.append((s.fork(label), subject))
            still.append((s, subject))
        elif match:  # `*)` after arms an unknown subject may have taken: labelled too
            entering.append((s if subject is not None else s.fork(label), subject))
        else:
            still.append((s, subject))
    return still
