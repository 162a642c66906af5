"""What one path to a launch gives the clauses of a relation (core/code/relations.py): the
variables it sees and the options among its words, and whether the relation is kept, broken or
cannot be told. PG014 reads it; the relations themselves never look at a launch."""

from __future__ import annotations

from ..code.relations import Absent, Relation, RelationKind, Subject, Clause
from ..flow import ValKind
from ..records import TextEnum, record
from .base import shown

_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)  # the script gives the text (a default the caller may override)
# argparse actions that take no value: the word after such an option is an option again
SWITCH_ACTIONS = frozenset({"store_true", "store_false", "store_const", "append_const", "count", "help",
                            "version", "BooleanOptionalAction"})


class Outcome(TextEnum):
    """A relation on one path."""

    KEPT = "kept"
    BROKEN = "broken"
    UNKNOWN = "unknown"  # a value or a word the script cannot know decides it


# an enum's member read off its class is slow (flow/values.py says why): judge() asks for
# each relation on each path
_KEPT, _BROKEN, _UNKNOWN = Outcome.KEPT, Outcome.BROKEN, Outcome.UNKNOWN
_VAR, _OPTION, _BOTH = Subject.VAR, Subject.OPTION, RelationKind.BOTH


@record(frozen=True)
class Looked:
    """One clause of a relation on one path, and what decided it."""

    clause: Clause
    holds: object  # True, False, or None when it cannot be told
    name: str  # the variable or option that decided (a clause may name several variables)
    value: object = None  # VAR: the text seen (None: unset); OPTION: the value given (None: none or unknown)
    given: bool = False  # OPTION: the option is among the words
    site: object = None  # VAR: the assignment the launch sees
    span: object = None  # where this document writes the value or the option word
    assumed: bool = False  # VAR: the script does not give it; judged on the code's default
    lit: object = None  # VAR: the span of a default in this document that decides the value (`${X:-8}`)

    def seen(self) -> tuple:
        """What the path gives, in English and Chinese."""
        if self.clause.subject is Subject.VAR:
            if self.value is None:
                return f"{self.name} is unset", f"{self.name} 未设置"
            return f"{self.name} is {self.value}", f"{self.name} 为 {self.value}"
        if not self.given:
            return f"{self.name} is not given", f"没有传 {self.name}"
        if self.clause.value is not None and self.value is not None:
            return f"{self.name} is {self.value}", f"{self.name} 为 {self.value}"
        return f"{self.name} is given", f"传了 {self.name}"


@record(frozen=True)
class Judged:
    """A relation on one path: its outcome and every clause looked at (conditions, then `then`)."""

    outcome: Outcome
    looked: tuple
    assumed: bool = False  # the outcome rests on a default the caller's environment may override


class Words:
    """A launch path's words read as options: which are literal, which the script cannot know.

    takes_value(option) says whether an option takes the next word (True, False, or None when
    nothing says): a word the script cannot know right after an option that takes a value is
    that value; anywhere else it may be any option, so an option's absence cannot be told. It
    is asked only when a clause needs it (the parser may have to be found for it)."""

    def __init__(self, args, takes_value):
        self.vals = list(args)
        self.texts = [v.text if v.kind in _GIVEN else None for v in self.vals]
        self._takes_value = takes_value
        self._free: list | None = None  # per word: None (literal or a value), "maybe", "free"
        self._given: set | None = None  # the options literal words give (before a `--`)

    def _kinds(self) -> list:
        """What each word the script cannot know may be: "free" (any option: no option before
        it takes a value), "maybe" (after an option nothing says takes one: likely its value)."""
        if self._free is None:
            kinds: list = []
            previous = None
            for text in self.texts:
                if text is None:
                    takes = self._takes_value(previous) if previous is not None else False
                    kinds.append(None if takes is True else "maybe" if takes is None else "free")
                    previous = None
                    continue
                kinds.append(None)
                if text == "--":
                    break
                previous = text if text.startswith("-") and "=" not in text else None
            self._free = kinds
        return self._free

    def mentions(self, option: str) -> bool:
        """Whether a literal word gives the option (as `--opt` or `--opt=value`)."""
        if self._given is None:  # once per path: every relation of every profile asks
            texts = self.texts
            if "--" in texts:
                texts = texts[:texts.index("--")]
            self._given = {text.partition("=")[0] for text in texts if text and text[0] == "-"}
        return option in self._given

    def span(self, j: int):
        """Where word j is written in this document (None for a sourced file's word)."""
        v = self.vals[j]
        return None if v.foreign else v.span

    def look(self, clause: Clause) -> Looked:
        """The OPTION clause on these words."""
        option = clause.name
        last, value, value_span = -1, None, None
        for j, text in enumerate(self.texts):
            if text == "--":
                break
            if text == option:
                last = j
                if j + 1 < len(self.texts):
                    value, value_span = self.texts[j + 1], self.span(j + 1)
                else:
                    value, value_span = None, None
            elif text is not None and text.startswith(option + "="):
                last, value, value_span = j, text[len(option) + 1:], self.span(j)
        if last < 0:
            blind = any(k is not None for k in self._kinds())
            return Looked(clause, None if blind else (not clause.equal), option, given=False)
        span = self.span(last)
        if clause.value is None:
            return Looked(clause, clause.equal, option, value, True, span=span)
        later = any(k == "free" for k in self._kinds()[last + 1:])  # it may give the option again
        if value is None or later:
            return Looked(clause, None, option, value, True, span=span)
        same = _same(value, clause.value)
        return Looked(clause, same if clause.equal else not same, option, value, True, span=value_span or span)


def _same(given: str, wanted: str) -> bool:
    """An option's value as argparse would compare it: the text, or the number when both are whole numbers."""
    if given == wanted:
        return True
    try:
        return int(given) == int(wanted)
    except ValueError:
        return False


def look_var(clause: Clause, path, exported: dict) -> Looked:
    """The VAR clause on what the path's launch sees (any of its names holding makes it hold)."""
    found = []
    for name in clause.names:
        found.append(_one_var(clause, name, path, exported))
        if found[-1].holds is True:
            return found[-1]
    unknown = [f for f in found if f.holds is None]
    return unknown[0] if unknown else found[-1]


def _one_var(clause: Clause, name: str, path, exported: dict) -> Looked:
    var = exported.get(name)
    if var is None:
        if path.env_file:  # `docker run --env-file`: any name may come from the file
            return Looked(clause, None, name)
        # env -i: nothing is inherited; a container still has its image's environment
        definite = path.cleared or clause.absent is Absent.UNSET
        return Looked(clause, clause.judge(None), name, assumed=not definite)
    val = var.val
    span = None if val.foreign else val.span
    if val.kind == ValKind.UNSET:
        return Looked(clause, clause.judge(None), name, site=var.origin)
    if val.kind not in _GIVEN:
        return Looked(clause, None, name, shown(val), site=var.origin, span=span)
    lit = val.lit if val.kind == ValKind.DEFAULT and not val.foreign else None
    return Looked(clause, clause.judge(val.text), name, shown(val), site=var.origin, span=span, lit=lit)


def absent_option(relation: Relation, words: Words | None):
    """The option clause of a `requires` relation that no literal word gives, else None: the
    relation is then kept (or, where a word the script cannot know may give the option,
    nothing can be claimed either way), whatever the path's variables."""
    if words is None or relation.kind is _BOTH:
        return None
    for clause in relation.clauses:
        if clause.subject is _OPTION and clause.equal and not words.mentions(clause.name):
            return clause
    return None


def judge(relation: Relation, path, exported: dict, words: Words | None) -> Judged:
    """The relation on one path (words None: the launch has no words, as at the end of a file,
    so an option clause cannot be told)."""
    def look(clause: Clause) -> Looked:
        if clause.subject is _VAR:
            return look_var(clause, path, exported)
        if words is None:
            return Looked(clause, None, clause.name)
        return words.look(clause)

    looked = []
    if relation.kind is _BOTH:
        looked = [look(t) for t in relation.clauses]
        states = {x.holds for x in looked}
        assumed = any(x.assumed for x in looked)
        if None in states:
            return Judged(_UNKNOWN, tuple(looked), assumed)
        return Judged(_KEPT if len(states) == 1 else _BROKEN, tuple(looked), assumed)
    absent = absent_option(relation, words)
    if absent is not None:
        return Judged(_KEPT, (Looked(absent, False, absent.name),))
    for clause in relation.clauses:
        looked.append(look(clause))
        if looked[-1].holds is False:
            return Judged(_KEPT, tuple(looked))
    assumed = any(x.assumed for x in looked)
    if any(x.holds is None for x in looked):
        return Judged(_UNKNOWN, tuple(looked), assumed)
    looked.append(look(relation.then))
    then = looked[-1]
    assumed = assumed or then.assumed
    if then.holds is None:
        return Judged(_UNKNOWN, tuple(looked), assumed)
    return Judged(_KEPT if then.holds else _BROKEN, tuple(looked), assumed)
