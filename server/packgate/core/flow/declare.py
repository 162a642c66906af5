"""Declarations on a path. The declarations the parser already knows (`export NAME`, `declare -i
NAME`, `readonly`, `local`, `unset`, `set -a`, `exit`) become the effects a command's handler
would return (DECLARATIONS), which the applier applies; the two that change variables, Declare and
UnsetNames, are applied here. An assignment statement is applied as it is (assignment()), and
every part that makes an assignment goes through assign(): the value, the attributes, the export
mark, a local's frame, the overwrite it makes."""

from __future__ import annotations

from .. import gates as G
from ..parse.model import Assign, AssignMode, Exit, ExportNames, Lit, Occurrence, SetOpt, Unset, Word
from .arith import evaluate
from .commands import attributes, quiet_status
from .effects import Attribute, Declare, Option, SetOption, Status, StopPath, UnsetNames, attributes_of
from .facts import NAMED, UNSET, GateSite, Origin, Overwrite, Stop, UnfollowedKind, Val, ValKind, Var, keeps_export
from ..records import replace
from .record import Define
from .sourcing import unread_gates
from .state import FAILED, OK, State
from .values import UNSURE_KEY, appended_keys, concat, element_of, referent, with_element

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_KNOWN = ValKind.KNOWN  # (an enum's member read off its class is slow: values.py says why)
_PLAIN, _LOCAL, _DECLARE, _READONLY_MODE = AssignMode.PLAIN, AssignMode.LOCAL, AssignMode.DECLARE, AssignMode.READONLY
_PREFIX, _GLOBAL = AssignMode.PREFIX, Attribute.GLOBAL
_NONE: frozenset = frozenset()
_READONLY, _INTEGER, _ASSOC, _INDEXED = Attribute.READONLY, Attribute.INTEGER, Attribute.ASSOC, Attribute.INDEXED
_NAMEREF, _NAMEREF_ORIGIN = Attribute.NAMEREF, Origin.NAMEREF
# the assignments that set element 0 of an array this shell has (`local A=x` makes a new scalar)
_KEEP_ARRAYS = frozenset((AssignMode.PLAIN, AssignMode.EXPORT, AssignMode.READONLY))
# assignments that do not reassign this shell's variable (a readonly one stays as it is)
_NOT_REASSIGNING = frozenset((AssignMode.PREFIX, AssignMode.ENV, AssignMode.ENV_UNSET, AssignMode.DOCKER))


def _any_count(word: Word, vals: list) -> bool:
    """Whether an array literal's word may give any number of elements: unquoted, with an
    expansion whose value the path cannot tell (`A+=($V)`: none when V is empty, several when
    it has blanks)."""
    return word.quote == "" and any(v.kind is ValKind.UNKNOWN for v in vals) and \
        any(type(p) is not Lit and not getattr(p, "quoted", False) for p in word.parts)


def _is_local(mode: str, s: State, declared: frozenset) -> bool:
    """Whether an assignment makes its variable local to the function it runs in: `local`, or
    `declare` / `typeset` in a function without -g."""
    return mode == _LOCAL or (mode == _DECLARE and bool(s.frames) and _GLOBAL not in declared)


def _scalar(a: Assign) -> bool:
    """Whether an assignment gives one word's value (not an array's, nor an element's)."""
    return a.value is not None and a.array is None and a.index is None and a.keys is None


class Declarations:
    """The walk's declarations and assignments; the facts they make go to the recorder."""

    def __init__(self, inp, where, rec, evaluator) -> None:
        self.inp, self.where, self.rec, self.evaluator = inp, where, rec, evaluator
        self.redirected: dict = {}  # (an assignment to a nameref, its target) -> the target's Assign

    def assignment(self, st: Assign, states: list) -> list:
        """NAME=value (plain, exported, declared or local) on every path: status 0 (a plain
        one with a command substitution: the substitution's, unknown here)."""
        status = quiet_status(st)
        local = st.mode == _LOCAL
        for s in states:
            if local and not s.frames:  # `local` outside a function: an error, nothing assigned
                s.status = FAILED
                continue
            s.status = status
            self.assign(s, st)
        return states

    def together(self, items: list, states: list) -> list:
        """One declaration's assignments (`export A=1 B=$A`): bash expands every value before
        it assigns any, so B gets A's value from before the declaration."""
        local = items[0].mode == AssignMode.LOCAL
        for s in states:
            if local and not s.frames:
                s.status = FAILED
                continue
            values = [self.evaluator.value(a.value, s) if _scalar(a) else None for a in items]
            for a, value in zip(items, values):
                s.status = quiet_status(a)
                self.assign(s, a, value)
        return states

    def declare(self, e: Declare, states: list) -> list:
        """Names declared without a value: their attributes, the export mark given or removed
        (`export X` after `export -n X` exports it again); `local` outside a function fails."""
        names = frozenset(name for name, _, _ in e.names)
        for s in states:
            if e.local and not s.frames:  # `local` outside a function: an error, nothing declared
                s.status = FAILED
                continue
            s.status = OK
            if _READONLY in e.attributes:
                s.readonly = s.readonly | names
            if _INTEGER in e.attributes:
                s.integers = s.integers | names
            if _ASSOC in e.attributes:
                s.assocs = s.assocs | names
            if (_INDEXED in e.attributes or _ASSOC in e.attributes) and not e.local:
                for name in names:  # `declare -a A`: an array from here on (a value, its element 0)
                    var = s.vars.get(name)
                    if var is None:
                        s.set(name, Var(UNSET, False, None, ()))
                    elif var.array is None:
                        s.set(name, var._replace(array=(var.val,) if var.val.kind is not ValKind.UNSET else ()))
            if _NAMEREF in e.attributes:  # `declare -n R`: a reference without a target yet
                for name in names:
                    if e.local:
                        s.save_local(name)
                    s.set(name, Var(Val(ValKind.UNSET, origin=_NAMEREF_ORIGIN), False, None))
                continue
            if e.export is None:
                continue
            for name, _, _ in e.names:
                name = referent(s, name) or name  # `export R` exports what R stands for
                var = s.vars.get(name)
                if not e.export:
                    if var is not None:
                        s.set(name, var._replace(exported=False, negated=True))
                        s.removed[name] = (e.start, e.end)
                else:
                    s.set(name, var._replace(exported=True, negated=False, from_caller=False) if var is not None else
                          Var(UNSET, True, None))
        return states

    def unset(self, e: UnsetNames, states: list) -> list:
        """`unset NAME...` removes the variables (an overwrite of their assignments); `-f` the
        functions instead, `-n` a nameref itself (nothing else); a readonly name stays, status 1."""
        if e.functions:
            for name, _, _ in e.names:
                if name in self.rec.functions:
                    self.rec.fn_version += 1
                    self.rec.define(Define(name, None, [], None))
            for s in states:
                s.status = OK
            return states
        for s in states:
            s.status = OK
            for name, _, _ in e.names:
                if e.namerefs:  # `unset -n R`: the reference R itself; a plain variable stays
                    var = s.vars.get(name)
                    if var is None or var.val.origin is not _NAMEREF_ORIGIN:
                        continue
                else:  # `unset R` unsets what R stands for
                    name = referent(s, name) or name
                if name in s.readonly:
                    s.status = FAILED
                    continue
                old = s.drop(name)
                s.removed[name] = (e.start, e.end)
                if old is not None and old.origin is not None:
                    self.overwrite(old.origin, e.site, old.exported)
        return states

    def assign(self, s: State, a: Assign, value: Optional[Val] = None) -> None:
        """What an assignment does to one path: the value, the export mark, a local's frame; to
        a readonly name it fails (status 1) and changes nothing but an export's mark."""
        old = s.vars.get(a.name)
        declared = attributes(a.keyword) if a.keyword else _NONE
        if (old is not None and old.val.origin is _NAMEREF_ORIGIN or declared and _NAMEREF in declared) \
                and a.mode not in _NOT_REASSIGNING:
            a = self.through_nameref(s, a, old, declared)
            if a is None:
                return
            old = s.vars.get(a.name)
        if a.name in s.readonly and a.mode not in _NOT_REASSIGNING:
            s.status = FAILED
            if a.mode == AssignMode.EXPORT and old is not None:
                s.set(a.name, old._replace(exported=True))
            return
        if a.mode == _READONLY_MODE or _READONLY in declared:
            s.readonly = s.readonly | {a.name}
        if declared:
            if _INTEGER in declared and a.name not in s.integers:
                s.integers = s.integers | {a.name}
            if _ASSOC in declared and a.name not in s.assocs:
                s.assocs = s.assocs | {a.name}
        array = keys = None
        if value is None and (a.index is not None or a.keys is not None):
            array, keys, value = self.elements(s, a, old)
        elif value is None:
            if a.array is not None:
                elems = []
                unsure = None  # where the first word that may give any number of elements is
                value_of, values_of = self.evaluator.value, self.evaluator.values
                for w in a.array:
                    if w.text is not None:  # a literal element: one value (computed once: Values.value)
                        elems.append(value_of(w, s))
                    else:
                        got = values_of(w, s)
                        if unsure is None and _any_count(w, got):
                            unsure = len(elems)
                        elems.extend(got)
                array = tuple(elems)
                if a.append and old is not None and old.array is not None:
                    if unsure is not None or old.keys is not None:
                        keys = appended_keys(old, len(array), unsure)
                    array = old.array + array
                elif unsure is not None:
                    keys = tuple(str(i) for i in range(unsure)) + (UNSURE_KEY,) * (len(array) - unsure)
                value = array[0] if array else Val(_KNOWN, "")
            elif a.value is None:
                value = Val(_KNOWN, "", lit=(a.eq_end, a.eq_end), span=(a.eq_end, a.eq_end))
            else:
                value = self.evaluator.value(a.value, s)
                if a.append and old is not None:
                    value = concat([old.val, value])
            if a.name in s.integers and mode_evaluates(a.mode) and array is None:
                value = self.integer(value, a, old, s)
            if array is None and old is not None and old.array is not None and (
                    a.mode in _KEEP_ARRAYS or a.mode == _DECLARE and (not s.frames or _GLOBAL in declared)):
                # `A=x` (`export A=x`, `declare A=x` outside a function) on an array sets its
                # element 0 and keeps the others: A stays an array, which no environment holds
                array, keys = with_element(old, "0", value, a.name in s.assocs)
        mode = a.mode
        exported = a.exported or s.allexport or keeps_export(old)
        if _is_local(mode, s, declared):
            s.save_local(a.name)  # local / declare in a function: undone on return
        s.removed.pop(a.name, None)
        if old is not None and old.origin is not None and mode != _PREFIX:
            self.overwrite(old.origin, a, old.exported)
        s.set(a.name, Var(value, exported, a, array, False, keys))
        if a.name in G.GATES or a.name in G.OTHER_VARS:
            self.rec.gate_sites.setdefault(a, GateSite(a, value))
            if a.file is not None and self.where.via is not None:
                self.rec.sourced_at.setdefault(a, self.where.via)

    def through_nameref(self, s: State, a: Assign, old: Optional[Var], declared: frozenset) -> Optional[Assign]:
        """An assignment that involves a nameref: `declare -n R=X` (or `R=X` after `declare -n R`)
        makes R one, and is done (None); `R=1` after it is an assignment to X (the Assign to go
        on with), or, where the path cannot tell X, makes every gate unknown (None)."""
        if _NAMEREF in declared or old.val.kind is ValKind.UNSET:
            self.nameref(s, a, old, declared)
            return None
        target = referent(s, a.name)
        if target is None:
            # any gate may be the one assigned: PG009 says so, naming the reference's target word
            made = old.origin.value if old.origin is not None and old.origin.value is not None else None
            detail = made.raw if made is not None and made.raw else a.name
            where = (a.start, a.end) if self.where.via is None else self.where.via  # (a sourced file's: its source line)
            unread_gates(self.rec, s, where, UnfollowedKind.ASSIGNED, detail, False)
            return None
        return self.redirect(a, target)

    def redirect(self, a: Assign, target: str) -> Assign:
        """The assignment as one of the variable a nameref points to: the same spans, the
        target's name (one copy per assignment and target, so findings stay one per site)."""
        key = (a, target)
        found = self.redirected.get(key)
        if found is None:
            found = self.redirected[key] = replace(a, name=target)
        return found

    def nameref(self, s: State, a: Assign, old: Optional[Var], declared: frozenset) -> None:
        """`declare -n R=X` (`local -n`): R now stands for X, whose name is R's value; a name the
        path cannot tell (or an element, `A[1]`) makes R a reference nobody can follow."""
        if a.value is None:
            value = Val(ValKind.UNSET, origin=_NAMEREF_ORIGIN)  # `declare -n R`: no target yet
        else:
            named = self.evaluator.value(a.value, s)
            known = named.kind is _KNOWN or named.kind is ValKind.DEFAULT
            value = Val(_KNOWN if known else ValKind.UNKNOWN, named.text if known else "",
                        via=NAMED.via, origin=_NAMEREF_ORIGIN)
        if _is_local(a.mode, s, declared):
            s.save_local(a.name)
        s.set(a.name, Var(value, a.exported or s.allexport or keeps_export(old), a))

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
                if key_word is None and keys is not None and UNSURE_KEY in keys and not assoc:
                    return None, None, Val(ValKind.UNKNOWN, via=f"{a.name}[...]", origin=Origin.UNKNOWN)
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

    def text_assign(self, name: str, text: str, start: int, end: int) -> Assign:
        """The Assign of a literal NAME=value inside a word."""
        self.rec.made += 1
        value = Word([Lit(text, start, end)], start, end, "", text, text)
        name_start = max(start - len(name) - 1, 0)
        a = Assign(start, end, name=name, name_start=name_start, name_end=name_start + len(name),
                   value=value, mode=AssignMode.ENV, exported=True, eq_end=start,
                   decl_start=name_start, decl_end=end)
        return a


# assignments a `declare -i` name evaluates (a command's prefix too; `${X:=d}` is not one here)
_EVALUATING = frozenset((AssignMode.PLAIN, AssignMode.EXPORT, AssignMode.DECLARE, AssignMode.LOCAL,
                         AssignMode.READONLY, AssignMode.PREFIX))


def mode_evaluates(mode: str) -> bool:
    """Whether an assignment of this mode to an integer variable is evaluated arithmetically."""
    return mode in _EVALUATING


# ---------------------------------------------------------------- the parsed declarations as effects

def _export_names(st: ExportNames) -> tuple:
    attrs = attributes_of(st.attributes) | ({_READONLY} if st.readonly else _NONE)
    export = (not st.negate) if st.exports else None
    return (Declare(tuple(st.names), st.start, st.end, attrs, export, st.local),)


def _unset(st: Unset) -> tuple:
    return (UnsetNames(tuple(st.names), st.start, st.end, "f" in st.option, "n" in st.option, st),)


def _set_option(st: SetOpt) -> tuple:
    return (SetOption(Option.ALLEXPORT, st.allexport), Status(OK))


def _exit(st: Exit) -> tuple:
    return (StopPath(Stop(st.kind)),)


# a declaration statement the parser knows -> its effects, as a command's handler returns them
# (an assignment, the hottest statement, is applied as it is: assignment())
DECLARATIONS = {ExportNames: _export_names, Unset: _unset, SetOpt: _set_option, Exit: _exit}
