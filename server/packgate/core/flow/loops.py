"""Loops: `for NAME in WORDS` walked pass by pass, `while` / `until` walked again from each new
state their body leaves, until none is new; a part of the walk (walk.py's Walker walks the bodies)."""

from __future__ import annotations

from .facts import LabelKind, Origin, Stop, Val, ValKind, Var, keeps_export
from ..parse.model import Loop
from .state import OK

MAX_LOOP_ITEMS = 8
MAX_SEQUENTIAL = 2  # nested for loops walked pass by pass; deeper ones walk their body once for every value
MAX_LOOP_PASSES = 4  # passes of a while / until body from new states (each may set what the last did not)
# statements times paths walked in the loops' extra passes (with those walked in calls) of one
# top-level statement, at most: past it, a loop's body is walked once for every pass left, as a
# call past MAX_CALL_STEPS is not walked
MAX_LOOP_STEPS = 1_000
_LOOP_ENDS = (Stop.BREAK, Stop.CONTINUE)  # end an iteration, not the script


class Loops:
    """The walk's loops."""

    def __init__(self, where, evaluator, walker) -> None:
        self.where, self.evaluator, self.walker = where, evaluator, walker

    def loop(self, st: Loop, states: list) -> list:
        """while / until: the body runs while the condition's status says so (one pass stands
        for any number); a condition that surely holds again never lets a pass out but by
        break. for: the body runs (once) or does not."""
        if st.var and st.items is not None:
            return self.for_items(st, states)
        if st.cond is None or st.keyword not in ("while", "until"):
            if st.cond is not None:
                states = self.walker.block(st.cond, states)
            ran = self.walker.block(st.body, [s.fork(self.walker.label(st.start, LabelKind.LOOP_RAN)) for s in states if not s.done])
            skipped = [s.fork(self.walker.label(st.start, LabelKind.LOOP_SKIPPED)) for s in states]
            for s in ran:
                if s.done in _LOOP_ENDS:
                    s.done = Stop.NONE
                s.status = None
            return self.walker.merge(skipped + ran)
        on_ok = st.keyword == "while"
        goes, leaves, out = self.walker.decide(self.walker.suspended(st.cond, states), st.start, LabelKind.LOOP_RAN,
                                        LabelKind.LOOP_SKIPPED, on_ok)
        for s in leaves:
            s.status = OK  # a loop whose body never ran returns 0
        entered = {g.key() for g in goes}  # the paths a pass started from (as they were): one from the same state adds nothing
        left_keys: set = set()
        for extra in range(MAX_LOOP_PASSES):
            again = []
            if extra:
                self.where.loop_depth += 1  # another pass: its statements count against MAX_LOOP_STEPS
            try:
                after = self.walker.block(st.body, goes)
            finally:
                if extra:
                    self.where.loop_depth -= 1
            for r in after:
                if r.done == Stop.BREAK:
                    r.done, r.status = Stop.NONE, None
                    out.append(r)
                elif r.done in _LOOP_ENDS or not r.done:
                    r.done = Stop.NONE
                    again.append(r)
                else:
                    out.append(r)
            if not again:
                break
            # the condition is tested again: where it surely holds, the loop goes on; where it
            # may, another pass runs from each path no pass has started from yet (`while getopts`
            # with two options sets what each gives), until none is new
            taken, left, stopped = self.walker.decide(self.walker.suspended(st.cond, again), st.start, None, None, on_ok)
            for r in left:
                r.status = None
            for r in left + stopped:
                k = r.key()
                if k not in left_keys:
                    left_keys.add(k)
                    out.append(r)
            goes = []
            for t in taken:
                k = t.key()
                if k not in entered:
                    entered.add(k)
                    goes.append(t)
            goes = self.walker.prune(goes)
            if not goes:
                break
            if extra == MAX_LOOP_PASSES - 1 or self.where.call_steps >= MAX_LOOP_STEPS:
                # passes enough: the rest leave as they are (one pass stands for any number)
                for r in goes:
                    r.status = None
                out.extend(goes)
                break
        return self.walker.merge(leaves + out)

    def for_items(self, st: Loop, states: list) -> list:
        """for NAME in WORDS: the body once per value, in order, each pass on the paths the one
        before left (a `break` ends them, a `continue` goes to the next), as bash runs it. Past
        MAX_SEQUENTIAL nested loops, or with more than MAX_LOOP_ITEMS values, one walk of the
        body stands for every pass at once (nested loops then cost depth, not items**depth)."""
        out, children, passes = [], [], []
        for s in states:
            if s.done:
                out.append(s)
                continue
            values = []
            for w in st.items:
                values.extend(self.evaluator.values(w, s))
            if any(v.kind == ValKind.UNKNOWN for v in values) or len(values) > MAX_LOOP_ITEMS:
                values = [Val(ValKind.UNKNOWN, via=st.var, origin=Origin.UNKNOWN)]
            if not values:
                out.append(s.fork(self.walker.label(st.start, LabelKind.LOOP_SKIPPED)))
            elif self.where.loop_depth < MAX_SEQUENTIAL and len(values) > 1 and self.where.call_steps < MAX_LOOP_STEPS:
                passes.append((s.fork(self.walker.label(st.start, LabelKind.LOOP_RAN)), values))
                continue
            for v in values:
                child = s.fork(self.walker.label(st.start, LabelKind.LOOP_RAN))
                child.set(st.var, Var(v, keeps_export(child.vars.get(st.var)), None))
                children.append(child)
        runs = self.walker.block(st.body, self.walker.prune(children)) if children else []
        for r in runs:
            if r.done in _LOOP_ENDS:
                r.done = Stop.NONE
        self.where.loop_depth += 1
        try:
            for s, values in passes:
                runs.extend(self.passes(st, s, values))
        finally:
            self.where.loop_depth -= 1
        return self.walker.merge(out + runs)

    def passes(self, st: Loop, s, values: list) -> list:
        """The body of a for loop once per value, in order, from path s: the paths after the last pass."""
        going, out = [s], []
        for k, v in enumerate(values):
            if self.where.call_steps >= MAX_LOOP_STEPS:  # passes enough: one walk stands for the rest
                forks = []
                for p in going:
                    for rest in values[k:]:
                        f = p.fork()
                        f.set(st.var, Var(rest, keeps_export(p.vars.get(st.var)), None))
                        forks.append(f)
                going = self.walker.block(st.body, self.walker.prune(forks))
                for r in going:
                    if r.done in _LOOP_ENDS:
                        r.done = Stop.NONE
                return out + going
            for p in going:
                p.set(st.var, Var(v, keeps_export(p.vars.get(st.var)), None))
            going = self.walker.block(st.body, going)
            still = []
            for r in going:
                if r.done == Stop.BREAK:
                    r.done = Stop.NONE
                    out.append(r)
                elif r.done == Stop.CONTINUE or not r.done:
                    r.done = Stop.NONE
                    still.append(r)
                else:
                    out.append(r)
            going = self.walker.prune(still)
            if not going:
                break
        return out + going
