"""Word evaluation: the value a word has on one path (known, a default, unknown, unset), and
the several values a word may expand to (arrays, unquoted splitting)."""

from __future__ import annotations

import os
import re

from .. import gates as G
from ..parse.model import Assign, AssignMode, Lit, Opaque, Ref, Word
from ..parse.words import is_name
from ..records import replace
from .transforms import case_changed, removed, replaced, substring
from .transforms import length as length_of
from .arith import evaluate
from .facts import NAMED, UNSET, GateSite, Origin, Val, ValKind, Var, keeps_export, literal_val, spanned
from .state import State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_SPECIAL_PARAMETERS = frozenset("@*#?$!-")
# an enum's member read off its class costs a lookup through EnumType's __getattr__ hook
# (about a thousand instructions): the hot paths read them from module constants
_KNOWN, _DEFAULT, _UNKNOWN, _UNSET = ValKind.KNOWN, ValKind.DEFAULT, ValKind.UNKNOWN, ValKind.UNSET
_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)
_IFS_RUNS = re.compile("[ \t\n]+")  # bash's default IFS: the blanks that split an unquoted expansion
_CALLER, _ARGUMENT, _FROM_DEFAULT, _NOBODY = Origin.CALLER, Origin.ARGUMENT, Origin.DEFAULT, Origin.UNKNOWN


class Values:
    """The walk's word evaluation: reads the path's variables, notes what was read (in the
    recorder), and makes the assignments `${X:=d}` does."""

    def __init__(self, inp, where, rec) -> None:
        self.inp, self.where, self.rec = inp, where, rec
        self.literals: dict = {}  # literal Word of this script -> its Val
        self.sourced_literals: dict = {}  # ... of a sourced file (its offsets are the file's)
        self.callers: dict = {}  # (name, required) -> the Val of a variable the caller gives

    def value(self, word: Word, s: State) -> Val:
        """Evaluate a word to one value."""
        if word.text is not None:  # literal: the same value on every path, computed once
            sourced = self.where.sourced
            cache = self.sourced_literals if sourced else self.literals
            v = cache.get(word)
            if v is None:
                parts = word.parts
                lit = (parts[0].start, parts[0].end) if len(parts) == 1 else None
                v = cache[word] = literal_val(word.text, lit, (word.start, word.end), sourced)
            return v
        parts = word.parts
        return self.word_value(word, self.part(parts[0], s) if len(parts) == 1
                               else concat([self.part(p, s) for p in parts]))

    def word_value(self, word: Word, v: Val) -> Val:
        """A word's value from its parts' joined value v: its span, and "" for an unset
        variable's expansion (a word is text)."""
        if v.kind is _UNSET:
            return Val(_KNOWN, "", span=(word.start, word.end), foreign=self.where.sourced)
        return spanned(v, (word.start, word.end), v.foreign or self.where.sourced)

    def positional_args(self, word: Word, s: State) -> list:
        """What a word of `set -- ...` expands to: `"$@"` where the script never set the
        positional parameters is CALLER_ARGS, the caller's."""
        parts = word.parts
        if len(parts) == 1 and type(parts[0]) is Ref and parts[0].name in ("@", "*") and not parts[0].op \
                and "@" not in s.vars:
            return [CALLER_ARGS]
        return self.values(word, s)

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
            if ref.name == "@" and ref.op == "" and var is not None and var.array is not None:
                return list(var.array)  # "$@" after `set -- ...`
            if ref.prefix_names:
                return [Val(_KNOWN, n, span=(word.start, word.end)) for n in self.prefixed(ref.name, s)] \
                    if self.prefix_known(ref.name, s) else [Val(_UNKNOWN, via="${!" + ref.name + "@}", origin=_NOBODY)]
            if ref.op in (":+", "+") and ref.arg is not None and (var is not None or s.container):
                if var is None or var.val.kind == _UNSET or (ref.op == ":+" and var.val.text == ""
                                                              and var.val.kind == _KNOWN):
                    return []
                if var.val.kind == _UNKNOWN:
                    val = var.val
                    return [Val(_UNKNOWN, via=ref.name, span=(word.start, word.end), origin=val.origin,
                                name=val.name, required=val.required)]
                self.mark_read(var)
                return self.values(ref.arg, s)
        if word.quote == "" and any(type(p) is Ref and _splits_here(p, s) for p in parts):
            vals = [self.part(p, s) for p in parts]  # each part evaluated once, split or not
            fields = self.fields(word, vals, s)
            if fields is not None:
                return fields
            return [self.word_value(word, vals[0] if len(vals) == 1 else concat(vals))]
        return [self.value(word, s)]

    def fields(self, word: Word, vals: list, s: State) -> Optional[list]:
        """The words an unquoted word with plain expansions becomes, given its parts' values
        (field splitting at bash's default IFS, an empty expansion no word), when every part is
        known; else None. Under an IFS of the script's, a word whose expansions hold none of its
        characters is one word (an empty one none); another is unknown, as what splits it is
        not followed here."""
        ifs = s.vars.get("IFS")
        own_ifs = ifs is not None and ifs.val.kind is not ValKind.UNSET and ifs.val.text != " \t\n"
        out, cur, started, whole = [], [], False, []
        for p, v in zip(word.parts, vals):
            if type(p) is Ref and not p.quoted and not _splits_here(p, s):
                return None  # ${X:-"a b"}, ${A[@]}...: read as one word, as before
            if v.kind is not _KNOWN and v.kind is not ValKind.UNSET:
                return None
            whole.append(v.text)
            if type(p) is not Ref or p.quoted:
                cur.append(v.text)  # literal or quoted text is never split ("" still makes a word)
                started = True
                continue
            if own_ifs:
                if v.text and (ifs.val.kind is not _KNOWN or any(c in ifs.val.text for c in v.text)):
                    return [Val(_UNKNOWN, via="IFS", origin=_NOBODY, span=(word.start, word.end))]
                if v.text:
                    cur.append(v.text)
                    started = True
                continue
            for i, piece in enumerate(_IFS_RUNS.split(v.text)):
                if i and started:  # a run of blanks ends the word
                    out.append("".join(cur))
                    cur, started = [], False
                if piece:
                    cur.append(piece)
                    started = True
        if started:
            out.append("".join(cur))
        if out == ["".join(whole)]:
            return None  # the word as it is: value() gives it, with the literal that decides it
        return [Val(_KNOWN, t, span=(word.start, word.end)) for t in out]

    def mark_read(self, var: Var) -> None:
        """Note that the assignment var came from was read (it is not an unread overwrite)."""
        origin = var.origin
        if origin is not None:
            self.rec.read[origin] = None

    def part(self, p, s: State) -> Val:
        """The value of one part of a word."""
        kind = type(p)
        if kind is Lit:
            return literal_val(p.text, (p.start, p.end), None, self.where.sourced)
        if kind is Opaque:
            if p.reason == "script-dir" and self.where.file_stack[-1]:
                return Val(_KNOWN, os.path.dirname(self.where.file_stack[-1]))
            if p.text and p.reason == "arithmetic":
                n = self.arithmetic(p.text, s)
                if n is not None:  # (one that assigns is not followed here)
                    return Val(_KNOWN, str(n), foreign=self.where.sourced)
            if p.reason in _SHOWN_AS_WRITTEN and not self.where.sourced:
                # `${#A[@]}`, `$((X + 1))`: the words themselves say more than the kind
                return Val(_UNKNOWN, via=self.inp.data[p.start:p.end].decode("utf-8", "replace"), origin=_NOBODY)
            return Val(_UNKNOWN, via=p.reason, origin=_NOBODY)
        return self.ref(p, s)

    def ref(self, r: Ref, s: State) -> Val:
        """The value of a parameter expansion: $X, ${X:-d}, ${X:=d}, ${X:+w}, $0, $BASH_SOURCE."""
        if r.index is not None or r.indirect or r.prefix_names:
            return self.special_ref(r, s)
        var = s.vars.get(r.name)
        if var is not None:
            if var.val.origin is _NAMEREF and var.val.kind is not ValKind.UNSET:
                return self.through_nameref(r, var, s)
            self.mark_read(var)
        name = r.name
        positional = name.isdigit() and name.isascii() or name in _SPECIAL_PARAMETERS
        if var is None and r.name == "0" and self.inp.path:
            var = Var(Val(_KNOWN, self.inp.path), False, None)
        elif var is None and r.name == "BASH_SOURCE" and self.where.file_stack[-1]:
            var = Var(Val(_KNOWN, self.where.file_stack[-1]), False, None)
        if var is not None:
            base = var.val
        elif s.container and not positional:
            base = UNSET  # a container starts from an empty environment
        else:  # the caller's environment or argument: the script cannot know it
            required = s.nounset and r.op == ""  # set -u ends the script at an unset $X: here it was set
            base = self.callers.get((name, required))
            if base is None:  # (the variables a launcher leaves to its caller are read again and again)
                base = self.callers[name, required] = _caller_value(name, positional, required)
            if r.name in G.GATES and r.name not in s.removed:
                # the script consults the caller's gate: from here on it is the caller's value
                s.set(r.name, Var(Val(_UNKNOWN, via=f"the caller's {r.name}", origin=Origin.INHERITED,
                                      name=name), True, None, from_caller=True))
        op = r.op
        if op == "":
            return base
        if op == "other":  # ${#X}, ${X/a/b}...: the caller's X transformed, or the script's
            if r.transform is not None and base.kind != _UNKNOWN:
                return self.transformed(r, base, s)
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
        if base.kind == _UNKNOWN and base.origin == _NOBODY:
            # made at run time (a command's output, `read`): no caller can override it, and
            # whether it is empty is as unknown as its text, so the default is only a maybe
            result = Val(_UNKNOWN, via=base.via, origin=_NOBODY)
        elif base.kind == _UNKNOWN:
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
        if op in (":=", "=") and (var is None or base.kind == _UNSET or base.kind == _KNOWN) \
                and r.name not in s.readonly:
            # ${X:=d} assigns X in this shell, an assignment of its own: where X was unset, or
            # empty for `:=` (a known X here is empty: a set one returned above); X keeps its
            # export mark (`export X` before it), else it is exported only under `set -a`
            self.rec.made += 1
            a = Assign(r.start, r.end, name=r.name, name_start=r.name_start, name_end=r.name_end,
                       mode=AssignMode.PARAM_DEFAULT, eq_end=r.name_end, decl_start=r.start, decl_end=r.end,
                       file=self.where.file_stack[-1] if len(self.where.file_stack) > 1 else None)
            s.set(r.name, Var(result, s.allexport or keeps_export(var), a))
            if r.name in G.GATES:
                self.rec.gate_sites.setdefault(a, GateSite(a, result))
                if a.file is not None and self.where.via is not None:
                    self.rec.sourced_at.setdefault(a, self.where.via)
        return result


    def transformed(self, r: Ref, base: Val, s: State) -> Val:
        """`${#X}`, `${X#p}`, `${X/p/r}`, `${X:o:l}`, `${X^^}` of a value the path knows, or of
        a default's (then a default too); unknown where bash's result is not followed."""
        if base.kind == ValKind.UNSET and s.nounset:
            return Val(_UNKNOWN, via=r.name, origin=_NOBODY)  # set -u: bash stops at it
        t = r.transform
        op, text = t.op, base.text
        if op == "length":
            out = length_of(text)
        elif op in ("#", "##", "%", "%%"):
            out = removed(text, op, t.pattern)
        elif op == ":":
            offset = self.arithmetic(t.offset, s)
            count = self.arithmetic(t.length, s) if t.length is not None else None
            unknown = offset is None or (t.length is not None and count is None)
            out = None if unknown else substring(text, offset, count)
        elif t.replacement is not None:
            by = self.value(t.replacement, s)
            out = replaced(text, op, t.pattern, by.text) if by.kind == _KNOWN else None
        else:
            out = case_changed(text, op)
        if out is None:
            return Val(_UNKNOWN, via=r.name, origin=_NOBODY)
        if base.kind == _DEFAULT:
            return Val(_DEFAULT, out, via=base.via, origin=_FROM_DEFAULT, name=base.name)
        return Val(_KNOWN, out)

    def arithmetic(self, text: str, s: State) -> Optional[int]:
        """An arithmetic expression's value on path s (None: unknown, or it assigns)."""
        n, assigned = evaluate(text, self.arith_lookup(s))
        return None if assigned else n

    def through_nameref(self, r: Ref, var: Var, s: State) -> Val:
        """`$R` of a nameref R (`declare -n R=X`): X's expansion, with R's own operator."""
        self.mark_read(var)
        target = referent(s, r.name)
        if target is None:
            return NAMED
        return self.ref(replace(r, name=target), s)

    def special_ref(self, r: Ref, s: State) -> Val:
        """`${A[key]}`, `${!X}`, `${!P@}`: the element, the variable X names, the names with a
        prefix; then the expansion's operator (`${A[k]:-d}`) on that value (never assigning)."""
        if r.prefix_names:
            if not self.prefix_known(r.name, s):
                return Val(_UNKNOWN, via="${!" + r.name + "@}", origin=_NOBODY)
            base = Val(_KNOWN, " ".join(self.prefixed(r.name, s)))
        elif r.indirect:
            target = self.ref(Ref(r.name, r.start, r.end, r.name_start, r.name_end), s)
            if target.kind != _KNOWN or not is_name(target.text):
                return Val(_UNKNOWN, via="${!" + r.name + "}", origin=_NOBODY)
            base = self.ref(Ref(target.text, r.start, r.end, r.name_start, r.name_end), s)
        else:
            base = self.element(r.name, r.index, s)
        op = r.op
        if op == "":
            return base
        if op == "other" and r.transform is not None and base.kind != _UNKNOWN:
            return self.transformed(r, base, s)
        if op == "other" or base.kind == _UNKNOWN:
            return Val(_UNKNOWN, via=r.name, origin=_NOBODY)
        is_set = base.kind in _GIVEN and (base.text != "" or not op.startswith(":"))
        if op in (":+", "+"):
            return self.value(r.arg, s) if is_set and r.arg is not None else Val(_KNOWN, "")
        if is_set:
            return base
        return self.value(r.arg, s) if r.arg is not None else Val(_KNOWN, "")

    def element(self, name: str, index: Word, s: State) -> Val:
        """`${A[key]}` on one path: the element's value, "" when the array the script made has
        none at that key (unknown when the key or the array is)."""
        var = s.vars.get(name)
        if var is None:
            return Val(_UNKNOWN, via=f"{name}[...]", origin=_NOBODY)
        self.mark_read(var)
        key = self.subscript_key(name, index, s, True)
        if key is None or var.val.kind == _UNKNOWN and var.array is None:
            return Val(_UNKNOWN, via=f"{name}[...]", origin=_NOBODY)
        found = element_of(var, key)
        if found is None and var.keys is not None and UNSURE_KEY in var.keys:
            return Val(_UNKNOWN, via=f"{name}[...]", origin=_NOBODY)  # it may be where the unsure ones went
        found = found if found is not None else Val(_KNOWN, "")
        by = self.value(index, s)
        if by.kind == _DEFAULT and found.kind == _KNOWN:  # `${T[$STAGE]}`, STAGE="${1:-s2}": the default's element
            return Val(_DEFAULT, found.text, via=by.via, lit=found.lit, span=found.span, foreign=found.foreign,
                       origin=_FROM_DEFAULT, name=by.name)
        return found

    def subscript_key(self, name: str, index: Word, s: State, default: bool = False) -> Optional[str]:
        """The key a subscript names on one path: its text for an associative array, its
        arithmetic value for an indexed one (a negative one counts from the end); None: unknown.
        default: a key from a default the caller may override counts (reading an element)."""
        val = self.value(index, s)
        if val.kind != _KNOWN and not (default and val.kind == _DEFAULT):
            return None
        if name in s.assocs:
            return val.text
        n, _ = evaluate(val.text, self.arith_lookup(s))
        if n is None:
            return None
        if n < 0:
            var = s.vars.get(name)
            if var is None or var.array is None:
                return None
            keys = var.keys or tuple(str(i) for i in range(len(var.array)))
            if UNSURE_KEY in keys:
                return None  # how many elements there are is not known
            last = max(int(k) for k in keys) if keys else -1
            n = last + 1 + n
            if n < 0:
                return None
        return str(n)

    def arith_lookup(self, s: State):
        """A variable's text for arithmetic on path s: None when the path does not know it."""
        def lookup(name: str) -> Optional[str]:
            var = s.vars.get(name)
            if var is None:
                return None
            self.mark_read(var)
            val = var.val
            if val.kind == _KNOWN:
                return val.text
            return "" if val.kind == ValKind.UNSET else None
        return lookup

    def prefixed(self, prefix: str, s: State) -> list:
        """`${!P@}`: the names of the set variables that start with P (and the gates that do:
        the caller may have set them), sorted as bash sorts them."""
        names = {n for n, v in s.vars.items() if n.startswith(prefix) and is_name(n) and v.val.kind != ValKind.UNSET}
        names.update(g for g in G.GATES if g.startswith(prefix))
        return sorted(names)

    @staticmethod
    def prefix_known(prefix: str, s: State) -> bool:
        """Whether `${!P@}` can be listed: the caller's own names with the prefix are not known,
        but those the checks read (the gates) are listed, and a name absent from a path is the
        caller's anyway."""
        return bool(prefix)


# `"$@"` where the script never set the positional parameters: the caller's, how many unknown
CALLER_ARGS = Val(_UNKNOWN, via="the caller's arguments", origin=_NOBODY)
# positional parameters no path can count any more (`shift $N` of an unknown N): unknown, how many too
SOME_ARGS = Val(_UNKNOWN, via="$@", origin=_NOBODY)


def positional_vars(args: tuple) -> dict:
    """The variables `set -- ARGS` gives: `@` (its elements args), `#`, and $1..$9 (after a
    CALLER_ARGS element, the caller's: its own $1... when it comes last, else unknown)."""
    out = {}
    at = next((i for i, v in enumerate(args) if v is CALLER_ARGS or v is SOME_ARGS), None)
    known = all(v.kind == _KNOWN for v in args)
    joined = Val(_KNOWN, " ".join(v.text for v in args)) if known else Val(_UNKNOWN, via="$@", origin=_NOBODY)
    out["@"] = Var(joined, False, None, tuple(args))
    out["#"] = Var(Val(_KNOWN, str(len(args))) if at is None else Val(_UNKNOWN, via="$#", origin=_NOBODY),
                   False, None)
    for k in range(1, 10):
        i = k - 1
        if at is None or i < at:
            val = args[i] if i < len(args) else Val(_KNOWN, "")
        elif at == len(args) - 1 and args[at] is CALLER_ARGS:
            n = str(i - at + 1)
            val = Val(_UNKNOWN, via="$" + n, origin=_ARGUMENT, name=n)
        else:
            val = Val(_UNKNOWN, via="$" + str(k), origin=_NOBODY)
        out[str(k)] = Var(val, False, None)
    return out


# the Opaque parts whose value a message names by their text rather than by their kind
_SHOWN_AS_WRITTEN = frozenset(("expansion", "arithmetic"))
_NAMEREF = Origin.NAMEREF
_MAX_NAMEREF_HOPS = 8


def referent(s: State, name: str) -> Optional[str]:
    """The variable `name` stands for on path s: itself, or the one a nameref (`declare -n`)
    points to, through a chain of them; None when a nameref points to a name the path cannot
    tell (or to an element, or round in a cycle)."""
    for _ in range(_MAX_NAMEREF_HOPS):
        var = s.vars.get(name)
        if var is None or var.val.origin is not _NAMEREF or var.val.kind is ValKind.UNSET:
            return name  # a nameref declared without a target reads as unset
        target = var.val.text
        if var.val.kind is not _KNOWN or not is_name(target):
            return None
        name = target
    return None


# the key of an element whose position a path cannot tell (after `A+=($V)`, V unknown)
UNSURE_KEY = "?"


def appended_keys(old: Var, count: int, unsure: Optional[int]) -> tuple:
    """The keys of array old after `A+=(...)` of count elements, the first unsure of them (and
    every one after it) at a position the path cannot tell."""
    keys = old.keys or tuple(str(i) for i in range(len(old.array)))
    if UNSURE_KEY in keys:
        return keys + (UNSURE_KEY,) * count
    nxt = 1 + max((int(k) for k in keys if k.lstrip("-").isdigit()), default=-1)
    return keys + tuple(str(nxt + i) if unsure is None or i < unsure else UNSURE_KEY for i in range(count))


def element_of(var: Var, key: str) -> Optional[Val]:
    """The element of an array (or a scalar, element 0) at key; None when it has none."""
    if var.array is None:
        return var.val if key == "0" and var.val.kind != ValKind.UNSET else None
    keys = var.keys
    if keys is None:
        if key.isdigit() and int(key) < len(var.array) and str(int(key)) == key:
            return var.array[int(key)]
        return None
    for k, v in zip(keys, var.array):
        if k == key:
            return v
    return None


def with_element(var: Optional[Var], key: str, val: Val, assoc: bool) -> tuple:
    """(elements, keys) of the array var after `A[key]=val` (keys None: dense from 0)."""
    if var is None or var.val.kind == ValKind.UNSET and var.array is None:
        return (val,), (None if key == "0" else (key,))
    if var.array is None:
        elems, keys = (var.val,), ("0",)
    else:
        elems = var.array
        keys = var.keys or tuple(str(i) for i in range(len(elems)))
    if key in keys:
        at = keys.index(key)
        elems = elems[:at] + (val,) + elems[at + 1:]
    else:
        pairs = list(zip(keys, elems)) + [(key, val)]
        if not assoc:
            pairs.sort(key=lambda kv: int(kv[0]))
        keys, elems = tuple(k for k, _ in pairs), tuple(v for _, v in pairs)
    if not assoc and keys == tuple(str(i) for i in range(len(keys))):
        return elems, None
    return elems, keys


class LazyValues:
    """The values of a command's words, evaluated only when a check looks at them."""

    __slots__ = ("flow", "words", "state", "cache")

    def __init__(self, flow: Values, words: list, state: State):
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

    def expand(self, i: int) -> list:
        """Every value word i expands to (an array's elements, unquoted splitting)."""
        return self.flow.values(self.words[i], self.state)

    def positional(self, i: int) -> list:
        """What word i of `set -- ...` gives the positional parameters (Values.positional_args)."""
        if self.words[i].text is not None:
            return [self[i]]
        return self.flow.positional_args(self.words[i], self.state)

    def arith(self, text: str, earlier: Optional[dict] = None) -> tuple:
        """An arithmetic expression evaluated on this path (arith.evaluate), after the
        assignments `earlier` (name -> text, or None when unknown) of the same command."""
        lookup = self.flow.arith_lookup(self.state)
        if earlier:
            path = lookup

            def lookup(name: str) -> Optional[str]:
                return earlier[name] if name in earlier else path(name)
        return evaluate(text, lookup)


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


def _known_start(vals: list) -> str:
    """The text the known values at the start of a concatenation give (up to the first value that is not known)."""
    out = []
    for v in vals:
        if v.kind != _KNOWN:
            break
        out.append(v.text)
    return "".join(out)


def _splits(p: Ref) -> bool:
    """Whether Values.fields reads an unquoted expansion: a plain one or a followed transform,
    not an array's elements, the positional parameters or a default's word."""
    return not p.quoted and not p.array_all and not p.prefix_names and p.name not in ("@", "*") \
        and (p.op == "" or p.transform is not None)


_TAKES_SET_VALUE = frozenset((":-", "-", ":=", "="))


def _splits_here(p: Ref, s: State) -> bool:
    """_splits, or `${X:-d}` (`-`, `:=`, `=`) where the path's X is set and taken: its value is
    then split as `$X`'s would be (the default's word, which may hold quotes, is not read)."""
    if _splits(p):
        return True
    if p.quoted or p.op not in _TAKES_SET_VALUE or p.array_all or p.prefix_names or p.index is not None \
            or p.indirect or p.transform is not None:
        return False
    var = s.vars.get(p.name)
    if var is None or var.array is not None or var.val.kind is not _KNOWN:
        return False
    return var.val.text != "" or p.op[0] != ":"


def _caller_value(name: str, positional: bool, required: bool) -> Val:
    """The value of a variable or parameter the caller gives (required: read under set -u)."""
    shown = "$" + name if positional else name
    if required:
        shown = f"the caller's {shown} (set, or set -u stops the script)"
    if not positional:
        return Val(_UNKNOWN, via=shown, origin=_CALLER, name=name, required=required)
    if name in _SPECIAL_PARAMETERS:  # $#, $?, $@...: not one value the caller gives
        return Val(_UNKNOWN, via=shown, origin=_NOBODY)
    return Val(_UNKNOWN, via=shown, origin=_ARGUMENT, name=name, required=required)


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
        # `${X}1`: not the caller's X as it came; `--opt=$X` still starts with `--opt=`
        return Val(_UNKNOWN, via=first.via, origin=_NOBODY, prefix=_known_start(vals))
    text = "".join(v.text for v in vals)
    if _DEFAULT in kinds:
        first = next(v for v in vals if v.kind == _DEFAULT)
        return Val(_DEFAULT, text, via=first.via, lit=lit, foreign=foreign, origin=_FROM_DEFAULT,
                   name=first.name)
    if kinds == {ValKind.UNSET}:
        return UNSET
    return literal_val(text, lit, None, foreign)
