"""Word evaluation: the value a word has on one path (known, a default, unknown, unset), and
the several values a word may expand to (arrays, unquoted splitting)."""

from __future__ import annotations

import os

from .. import gates as G
from ..parse.model import Assign, AssignMode, Lit, Opaque, Ref, Word
from .facts import UNSET, GateSite, Origin, Val, ValKind, Var
from .state import State

_SPECIAL_PARAMETERS = frozenset("@*#?$!-")
_KNOWN, _DEFAULT, _UNKNOWN = ValKind.KNOWN, ValKind.DEFAULT, ValKind.UNKNOWN
_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)
_CALLER, _ARGUMENT, _FROM_DEFAULT, _NOBODY = Origin.CALLER, Origin.ARGUMENT, Origin.DEFAULT, Origin.UNKNOWN


class Values:
    """The walk's word evaluation (a part of flow.analysis.Flow): reads the path's variables,
    notes what was read, and makes the assignments `${X:=d}` does."""

    def value(self, word: Word, s: State) -> Val:
        """Evaluate a word to one value."""
        if word.text is not None:  # literal: the same value on every path, computed once
            cache = self.sourced_literals if self.sourced else self.literals
            v = cache.get(word)
            if v is None:
                parts = word.parts
                lit = (parts[0].start, parts[0].end) if len(parts) == 1 else None
                v = cache[word] = Val(_KNOWN, word.text, "", lit, (word.start, word.end), self.sourced)
            return v
        parts = word.parts
        v = self.part(parts[0], s) if len(parts) == 1 else concat([self.part(p, s) for p in parts])
        return Val(v.kind, v.text, v.via, v.lit, (word.start, word.end),
                   v.foreign or self.sourced, v.origin, v.name, v.required)

    def values(self, word: Word, s: State) -> list:
        """Evaluate a word that may expand to several (arrays, unquoted splitting)."""
        if word.text is not None:
            return [self.value(word, s)]
        parts = word.parts
        if len(parts) == 1 and isinstance(parts[0], Ref):
            ref = parts[0]
            var = s.vars.get(ref.name)
            if ref.array_all and ref.op == "" and var is not None and var.array is not None:
                self.mark_read(var)
                return list(var.array)
            if ref.op in (":+", "+") and ref.arg is not None:
                if var is None or var.val.kind == ValKind.UNSET or (ref.op == ":+" and var.val.text == ""
                                                              and var.val.kind == _KNOWN):
                    return []
                if var.val.kind == _UNKNOWN:
                    val = var.val
                    return [Val(_UNKNOWN, via=ref.name, span=(word.start, word.end), origin=val.origin,
                                name=val.name, required=val.required)]
                self.mark_read(var)
                return self.values(ref.arg, s)
            if not ref.quoted and word.quote == "" and ref.op == "" and var is not None:
                self.mark_read(var)
                if var.val.kind == _KNOWN and var.array is None and any(c.isspace() for c in var.val.text):
                    return [Val(_KNOWN, t, span=(word.start, word.end)) for t in var.val.text.split()]
        v = self.value(word, s)
        return [v]

    def mark_read(self, var: Var) -> None:
        """Note that the assignment var came from was read (it is not an unread overwrite)."""
        origin = var.origin
        if origin is not None:
            self.read[origin] = None

    def part(self, p, s: State) -> Val:
        """The value of one part of a word."""
        kind = type(p)
        if kind is Lit:
            return Val(_KNOWN, p.text, lit=(p.start, p.end), foreign=self.sourced)
        if kind is Opaque:
            if p.reason == "script-dir" and self.file_stack[-1]:
                return Val(_KNOWN, os.path.dirname(self.file_stack[-1]))
            return Val(_UNKNOWN, via=p.reason, origin=_NOBODY)
        return self.ref(p, s)

    def ref(self, r: Ref, s: State) -> Val:
        """The value of a parameter expansion: $X, ${X:-d}, ${X:=d}, ${X:+w}, $0, $BASH_SOURCE."""
        var = s.vars.get(r.name)
        if var is not None:
            self.mark_read(var)
        name = r.name
        positional = name.isdigit() and name.isascii() or name in _SPECIAL_PARAMETERS
        if var is None and r.name == "0" and self.path:
            var = Var(Val(_KNOWN, self.path), False, None)
        elif var is None and r.name == "BASH_SOURCE" and self.file_stack[-1]:
            var = Var(Val(_KNOWN, self.file_stack[-1]), False, None)
        if var is not None:
            base = var.val
        elif s.container and not positional:
            base = UNSET  # a container starts from an empty environment
        else:  # the caller's environment or argument: the script cannot know it
            shown = "$" + r.name if positional else r.name
            required = s.nounset and r.op == ""  # set -u ends the script at an unset $X: here it was set
            if required:
                shown = f"the caller's {shown} (set, or set -u stops the script)"
            if not positional:
                base = Val(_UNKNOWN, via=shown, origin=_CALLER, name=name, required=required)
            elif name in _SPECIAL_PARAMETERS:  # $#, $?, $@...: not one value the caller gives
                base = Val(_UNKNOWN, via=shown, origin=_NOBODY)
            else:
                base = Val(_UNKNOWN, via=shown, origin=_ARGUMENT, name=name, required=required)
            if r.name in G.GATES and r.name not in s.removed:
                # the script consults the caller's gate: from here on it is the caller's value
                s.set(r.name, Var(Val(_UNKNOWN, via=f"the caller's {r.name}", origin=Origin.INHERITED,
                                      name=name), True, None))
        op = r.op
        if op == "":
            return base
        if op == "other":  # ${#X}, ${X/a/b}...: the caller's X transformed, or the script's
            if var is None and base.kind == _UNKNOWN:
                return Val(_UNKNOWN, via=r.name, origin=base.origin, name=base.name)
            return Val(_UNKNOWN, via=r.name, origin=_NOBODY)
        empty_counts = op.startswith(":")
        is_set = base.kind in _GIVEN and (base.text != "" or not empty_counts)
        if op in (":+", "+"):
            if base.kind == _UNKNOWN:
                return Val(_UNKNOWN, via=base.via, origin=base.origin, name=base.name, required=base.required)
            return self.value(r.arg, s) if is_set and r.arg is not None else Val(_KNOWN, "")
        # :- - := =
        alt = self.value(r.arg, s) if r.arg is not None else Val(_KNOWN, "")
        if is_set:
            return base
        if base.kind == _UNKNOWN:
            if alt.kind == _KNOWN:
                result = Val(_DEFAULT, alt.text, via=base.via, lit=alt.lit, foreign=alt.foreign,
                             origin=_FROM_DEFAULT, name=base.name)
            elif alt.kind == _DEFAULT:
                result = Val(_DEFAULT, alt.text, via=base.via + " or " + alt.via, lit=alt.lit,
                             foreign=alt.foreign, origin=_FROM_DEFAULT, name=base.name or alt.name)
            else:
                result = alt
        else:
            result = alt
        if op in (":=", "=") and var is None:
            # ${X:=d} assigns X in this shell (not exported): an assignment of its own
            self.made += 1
            a = Assign(r.start, r.end, name=r.name, name_start=r.name_start, name_end=r.name_end,
                       mode=AssignMode.PARAM_DEFAULT, eq_end=r.name_end, decl_start=r.start, decl_end=r.end,
                       file=self.file_stack[-1] if len(self.file_stack) > 1 else None)
            s.set(r.name, Var(result, s.allexport, a))
            if r.name in G.GATES:
                self.gate_sites.setdefault(a, GateSite(a, result))
                if a.file is not None and self.via is not None:
                    self.sourced_at.setdefault(a, self.via)
        return result


class LazyValues:
    """The values of a command's words, evaluated only when a check looks at them."""

    __slots__ = ("flow", "words", "state", "cache")

    def __init__(self, flow: "Values", words: list, state: State):
        self.flow, self.words, self.state, self.cache = flow, words, state, {}

    @property
    def names(self) -> "LazyNames":
        return LazyNames(self)  # not kept: a back reference would make a cycle per command

    def __len__(self) -> int:
        return len(self.words)

    def __getitem__(self, i: int) -> Val:
        v = self.cache.get(i)
        if v is None:
            v = self.cache[i] = self.flow.value(self.words[i], self.state)
        return v


class LazyNames:
    """The text of each word ('' when unknown), literal words without evaluating them."""

    __slots__ = ("vals",)

    def __init__(self, vals: LazyValues):
        self.vals = vals

    def __len__(self) -> int:
        return len(self.vals.words)

    def __getitem__(self, i: int) -> str:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        text = self.vals.words[i].text
        if text is not None:
            return text
        v = self.vals[i]
        return v.text if v.kind != _UNKNOWN else ""


def concat(vals: list) -> Val:
    """The value of words joined without a separator."""
    if not vals:
        return Val(_KNOWN, "")
    if len(vals) == 1:
        return vals[0]
    kinds = {v.kind for v in vals}
    nonempty = [v for v in vals if not (v.kind == _KNOWN and v.text == "")]
    lit = nonempty[0].lit if len(nonempty) == 1 else None
    foreign = nonempty[0].foreign if len(nonempty) == 1 else False
    if _UNKNOWN in kinds:
        first = next(v for v in vals if v.kind == _UNKNOWN)
        if len(nonempty) == 1:  # `"${X}"` read as parts: still the caller's X as it came
            return Val(_UNKNOWN, via=first.via, origin=first.origin, name=first.name, required=first.required)
        return Val(_UNKNOWN, via=first.via, origin=_NOBODY)  # `${X}1`: not the caller's X as it came
    text = "".join(v.text for v in vals)
    if _DEFAULT in kinds:
        first = next(v for v in vals if v.kind == _DEFAULT)
        return Val(_DEFAULT, text, via=first.via, lit=lit, foreign=foreign, origin=_FROM_DEFAULT,
                   name=first.name)
    if kinds == {ValKind.UNSET}:
        return UNSET
    return Val(_KNOWN, text, lit=lit, foreign=foreign)
