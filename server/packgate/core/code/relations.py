"""The contract's relations between environment variables and trainer options: the typed table
(profile entries live in core/gates.py, a team's own come from the `contract` setting), how one
clause judges a value, how a relation reads in a message, and the reading of the setting.

A relation is one of two kinds. `both`: its clauses all hold or none does (the packing gates:
both on or both off). `requires`: when every clause of `when` holds, `then` must hold too ("when
OFFLINE_PACKED_DATA is 1, --micro-batch-size must be 1", "CUDA_DEVICE_MAX_CONNECTIONS must not
be 1 when --use-torch-fsdp2 is given"). A clause looks at one variable (its value, compared as
the code compares it) or at one option (given, absent, or given with a value).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..records import TextEnum, record
from ..written import as_written

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Any

CONTRACT_RULE = "PG014"  # the rule that reports a relation no dedicated rule owns


class RelationKind(TextEnum):
    """What a relation asks of its clauses."""

    BOTH = "both"  # every clause holds, or none does
    REQUIRES = "requires"  # when every `when` clause holds, `then` holds


class Subject(TextEnum):
    """What a clause looks at."""

    VAR = "var"  # an environment variable the launch sees
    OPTION = "option"  # an option among the launch's words


class Compare(TextEnum):
    """How the code compares a variable's value with the clause's."""

    STR = "str"  # the text as it is: v == "1"
    INT = "int"  # int(v) == int(value); a value int() rejects is the value rules' (PG005)


class Absent(TextEnum):
    """What a variable the script never gives the launch means for a clause."""

    CALLER = "caller"  # the caller's environment may give it: judged on the default, at most information
    UNSET = "unset"  # the launcher is where it is set: absent is unset (the code's default applies)


@record(frozen=True)
class Clause:
    """One clause of a relation.

    VAR: holds when the variable's value equals `value` (compared as `compare` says; `equal`
    False: when it does not); several names: when it holds for any of them. `default` is what
    the code reads when the variable is unset (None: nothing, so it equals no value).
    OPTION: holds when the option is given (`value`: with that value, the last one given
    winning, as argparse keeps it); `equal` False: when it is not given (with `value`: not
    with that value)."""

    subject: Subject
    names: tuple  # VAR: the variable(s); OPTION: the option string, one
    value: Any = None  # str, or None (OPTION: any value)
    equal: bool = True
    compare: Compare = Compare.STR
    default: Any = None
    absent: Absent = Absent.CALLER

    @property
    def name(self) -> str:
        """The first (usually the only) variable or option the clause names."""
        return self.names[0]

    def judge(self, text: str | None) -> bool | None:
        """Whether a VAR clause holds for a value (None: unset, so the default); None when the
        code's parse rejects it (int() of `true`: another rule's finding)."""
        if text is None:
            text = self.default
        if text is None:
            same = False
        elif self.compare is Compare.INT:
            try:
                same = int(text) == int(self.value)
            except (TypeError, ValueError):
                return None
        else:
            same = text == self.value
        return same if self.equal else not same


@record(frozen=True)
class Relation:
    """One relation the code asserts (or a team declared) between variables and options."""

    kind: RelationKind
    name: str  # short and stable: messages and --show-settings name it
    clauses: tuple  # of Clause: BOTH's clauses, or REQUIRES' conditions (all must hold)
    then: Any = None  # REQUIRES: the Clause that must then hold
    reason_en: str = ""
    reason_zh: str = ""
    at: str = ""  # file:line where the code asserts it ("" for a team's relation that names none)
    owner: str = CONTRACT_RULE  # the rule that reports it (PG001, PG003 own the packing entries)
    declared: str = ""  # where it comes from: "profile ov2", a configuration file

    def variables(self) -> tuple:
        """Every variable the relation's clauses name."""
        clauses = self.clauses + ((self.then,) if self.then is not None else ())
        return tuple(n for t in clauses if t.subject is Subject.VAR for n in t.names)

    def describe(self, lang: str = "en") -> str:
        """The relation in words (en or zh)."""
        zh = lang == "zh"
        if self.kind is RelationKind.BOTH:
            names = [" / ".join(t.names) for t in self.clauses]
            value = _show(self.clauses[0].value) if self.clauses else "1"
            if zh:
                return f"{'、'.join(names)} 必须同时为 {value} 或同时不为 {value}"
            if len(names) == 2:
                return f"{names[0]} and {names[1]} are both {value} or neither is"
            return f"{', '.join(names)} are all {value} or none is"
        parts = [condition(t, lang) for t in self.clauses]
        if zh:  # a blank between Chinese and a name, none between Chinese words
            when = parts[0] + "".join((" 且 " if p[:1].isascii() else " 且") + p for p in parts[1:])
        else:
            when = " and ".join(parts)
        then = requirement(self.then, lang)
        if zh:  # a blank between Chinese and a name, none before Chinese
            return f"当{' ' if when[:1].isascii() else ''}{when} 时，{then}"
        return f"{then} when {when}"


def _show(value: Any) -> str:
    return "''" if value == "" else str(value)


def condition(t: Clause, lang: str = "en") -> str:
    """A clause read as a condition: `X is 1`, `--opt is given`."""
    zh = lang == "zh"
    name = " / ".join(t.names)
    if t.subject is Subject.VAR:
        if zh:
            return f"{name} {'为' if t.equal else '不为'} {_show(t.value)}"
        return f"{name} is {'' if t.equal else 'not '}{_show(t.value)}"
    if t.value is None:
        if zh:
            return f"{'传了' if t.equal else '没有传'} {name}"
        return f"{name} is {'given' if t.equal else 'not given'}"
    if zh:
        return f"{name} {'为' if t.equal else '不为'} {t.value}"
    return f"{name} is {'' if t.equal else 'not '}{t.value}"


def requirement(t: Clause, lang: str = "en") -> str:
    """A clause read as what must hold: `X must be 1`, `--opt must not be given`."""
    zh = lang == "zh"
    name = " / ".join(t.names)
    if t.subject is Subject.VAR or t.value is not None:
        value = _show(t.value)
        if zh:
            return f"{name} {'必须为' if t.equal else '不能为'} {value}"
        return f"{name} must {'' if t.equal else 'not '}be {value}"
    if zh:
        return f"{'必须传' if t.equal else '不能传'} {name}"
    return f"{name} must {'' if t.equal else 'not '}be given"


# -------------------------------------------------------------- the `contract` setting

ENTRY_KEYS = ("kind", "name", "reason", "at", "vars", "value", "compare", "default", "absent", "when", "then")
VAR_KEYS = ("var", "value", "equal", "compare", "default", "absent")
OPTION_KEYS = ("option", "value", "given")
KINDS = tuple(k.value for k in RelationKind)
COMPARES = tuple(c.value for c in Compare)
ABSENTS = tuple(a.value for a in Absent)
_CLAUSE_SHAPE = '{var = "NAME", value = "1"} or {option = "--opt"}'


class _Entry:
    """Reads one `[[contract]]` table, reporting each problem with where it is."""

    def __init__(self, where: str, problems: list):
        self.where, self.problems, self.ok = where, problems, True

    def bad(self, key: str, value: Any, expected: str) -> None:
        self.problems.append(f"{self.where}.{key} = {as_written(value)}: expected {expected}")
        self.ok = False

    def missing(self, key: str, expected: str) -> None:
        self.problems.append(f"{self.where}: {key} is missing; expected {expected}")
        self.ok = False

    def unknown(self, table: Mapping, keys: tuple, where: str) -> None:
        for key in table:
            if key not in keys:
                self.problems.append(f"{where}: unknown key {key!r} (it takes {', '.join(keys)})")
                self.ok = False

    def text(self, table: Mapping, key: str, expected: str = "a string", *, required: bool = False,
             option: bool = False) -> Any:
        value = table.get(key)
        if value is None:
            if required:
                self.missing(key, expected)
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            self.bad(key, value, expected)
            return None
        value = str(value)
        if option and not value.startswith("-"):
            self.bad(key, value, expected)
            return None
        if not option and key in ("var", "vars") and not _is_name(value):
            self.bad(key, value, expected)
            return None
        return value

    def choice(self, table: Mapping, key: str, choices: tuple, default: str) -> str:
        value = table.get(key, default)
        if not isinstance(value, str) or value not in choices:
            self.bad(key, value, f"one of {', '.join(choices)}")
            return default
        return value

    def flag(self, table: Mapping, key: str) -> bool:
        value = table.get(key, True)
        if not isinstance(value, bool):
            self.bad(key, value, "true or false")
            return True
        return value


def _is_name(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and all(c.isalnum() or c == "_" for c in text) \
        and text.isascii()


def _clause(entry: _Entry, raw: Any, where: str) -> Clause | None:
    """One clause table of `when` / `then`."""
    sub = _Entry(where, entry.problems)
    if not isinstance(raw, Mapping):
        sub.problems.append(f"{where} = {as_written(raw)}: expected a table, {_CLAUSE_SHAPE}")
        entry.ok = False
        return None
    if ("var" in raw) == ("option" in raw):
        sub.problems.append(f"{where}: expected exactly one of var or option, {_CLAUSE_SHAPE}")
        entry.ok = False
        return None
    if "var" in raw:
        sub.unknown(raw, VAR_KEYS, where)
        name = sub.text(raw, "var", "a variable name")
        value = sub.text(raw, "value", "a string (what the variable is compared with)", required=True)
        default = sub.text(raw, "default", "a string (what the code reads when the variable is unset)")
        clause = Clause(Subject.VAR, (name,), value, sub.flag(raw, "equal"),
                    Compare(sub.choice(raw, "compare", COMPARES, "str")), default,
                    Absent(sub.choice(raw, "absent", ABSENTS, "caller")))
        if clause.compare is Compare.INT and value is not None and not _whole(value):
            sub.bad("value", value, "a whole number with compare = \"int\"")
    else:
        sub.unknown(raw, OPTION_KEYS, where)
        name = sub.text(raw, "option", "an option string starting with -", option=True)
        value = sub.text(raw, "value", "a string (the option's value)")
        clause = Clause(Subject.OPTION, (name,), value, sub.flag(raw, "given"))
    entry.ok = entry.ok and sub.ok
    return clause if sub.ok else None


def _whole(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True




def relation_of(raw: Any, where: str, declared: str, problems: list, name: str = "") -> Relation | None:
    """One `[[contract]]` table as a Relation, or None (each problem reported, one line each)."""
    entry = _Entry(where, problems)
    if not isinstance(raw, Mapping):
        problems.append(f"{where} = {as_written(raw)}: expected a table with kind = \"both\" or \"requires\"")
        return None
    entry.unknown(raw, ENTRY_KEYS, where)
    kind = raw.get("kind")
    if kind is None:
        entry.missing("kind", f"one of {', '.join(KINDS)}")
        return None
    if kind not in KINDS:
        entry.bad("kind", kind, f"one of {', '.join(KINDS)}")
        return None
    name = entry.text(raw, "name") or name or where
    reason = entry.text(raw, "reason") or ""
    at = entry.text(raw, "at", "a string (file:line of the code that asserts it)") or ""
    if kind == RelationKind.BOTH:
        for key in ("when", "then"):
            if key in raw:
                problems.append(f"{where}: {key} belongs to kind = \"requires\"; kind = \"both\" takes vars")
                entry.ok = False
        names = raw.get("vars")
        if names is None:
            entry.missing("vars", "a list of two or more variable names")
            return None
        if not isinstance(names, list) or len(names) < 2 or not all(isinstance(n, str) and _is_name(n)
                                                                    for n in names):
            entry.bad("vars", names, "a list of two or more variable names")
            return None
        value = entry.text(raw, "value", "a string (what on is)") or "1"
        default = entry.text(raw, "default", "a string (what the code reads when a variable is unset)")
        compare = Compare(entry.choice(raw, "compare", COMPARES, "str"))
        absent = Absent(entry.choice(raw, "absent", ABSENTS, "caller"))
        if compare is Compare.INT and not _whole(value):
            entry.bad("value", value, "a whole number with compare = \"int\"")
        clauses = tuple(Clause(Subject.VAR, (n,), value, True, compare, default, absent) for n in names)
        then = None
    else:
        for key in ("vars", "value", "compare", "default", "absent"):
            if key in raw:
                problems.append(f"{where}: {key} belongs to kind = \"both\" or to a clause of when / then")
                entry.ok = False
        when = raw.get("when")
        if when is None:
            entry.missing("when", f"a table or a list of tables, {_CLAUSE_SHAPE}")
            return None
        if isinstance(when, Mapping):
            when = [when]
        if not isinstance(when, list) or not when:
            entry.bad("when", when, f"a table or a list of tables, {_CLAUSE_SHAPE}")
            return None
        clauses = tuple(_clause(entry, t, f"{where}.when" + (f"[{i}]" if len(when) > 1 else ""))
                      for i, t in enumerate(when, start=1))
        if "then" not in raw:
            entry.missing("then", f"a table, {_CLAUSE_SHAPE}")
            return None
        then = _clause(entry, raw["then"], f"{where}.then")
    if not entry.ok:
        return None
    return Relation(RelationKind(kind), name, clauses, then, reason, reason, at, CONTRACT_RULE, declared)


def relations_of(value: Any, where: str, source: str, problems: list) -> tuple | None:
    """The `contract` setting (a list of tables, counted from 1 in problems and names) as
    Relations: an invalid entry is reported and left out, the others apply; None when the value
    is not a list at all. where: how problems name the table (`[tool.packgate] `, `packgate.`);
    source: the configuration file's name ("" for the editor's settings)."""
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, (list, tuple)):
        return None
    found = []
    for i, raw in enumerate(value, start=1):
        spot = f"{where}contract[{i}]"
        declared = f"{source}: {spot}" if source else spot
        relation = relation_of(raw, spot, declared, problems, f"contract[{i}]")
        if relation is not None:
            found.append(relation)
    return tuple(found)
