"""packgate.core.records: the dataclass semantics the core relies on, without dataclasses."""

import pickle

import pytest

from packgate.core import records
from packgate.core.findings import Edit, Finding, Fix
from packgate.core.records import factory, record, replace
from packgate.core.settings import Settings


@record(frozen=True)
class Point:
    x: int
    y: int = 0
    note: dict = factory(dict, compare=False)


@record(eq=True)
class Box:
    items: list = factory(list)
    seen: int = 0

    def __post_init__(self):
        self.seen = len(self.items)


def test_frozen_records_compare_and_hash_by_value():
    a, b = Point(1, 2, {"a": 1}), Point(1, 2, {"b": 2})
    assert a == b and hash(a) == hash(b)  # `note` is left out of both
    assert a != Point(1, 3) and a != (1, 2)
    assert len({a, b, Point(2)}) == 2
    with pytest.raises(AttributeError):
        a.x = 5
    with pytest.raises(AttributeError):
        del a.y


def test_replace_copies_with_changes_and_refuses_unknown_fields():
    a = Point(1, 2)
    b = replace(a, y=7)
    assert (b.x, b.y) == (1, 7) and (a.x, a.y) == (1, 2)
    with pytest.raises(TypeError):
        replace(a, z=1)


def test_mutable_value_records_are_unhashable_and_run_post_init():
    box = Box([1, 2, 3])
    assert box.seen == 3 and box == Box([1, 2, 3]) and box != Box([1])
    with pytest.raises(TypeError):
        hash(box)
    assert Box().items is not Box().items


def test_records_pickle_by_their_fields():
    """`packgate check` sends findings back from its worker processes."""
    finding = Finding("PG001", "missing-companion", "error", "m", 1, 2, line=1, column=2,
                      fixes=(Fix("d", (Edit(0, 0, "x"),)),), data={"launch": [1, 2]})
    again = pickle.loads(pickle.dumps(finding))
    assert again == finding and again.data == {"launch": [1, 2]} and again.fixes[0].edits[0].text == "x"
    settings = Settings(lang="zh", severity={"PG002": "off"})
    assert pickle.loads(pickle.dumps(settings)) == settings
    assert pickle.loads(pickle.dumps(Point(3, 4))) == Point(3, 4)


def test_the_core_models_are_records():
    for cls in (Finding, Fix, Edit, Settings):
        assert records.fields(cls), cls
    assert records.fields(Finding)[:6] == ("code", "rule", "severity", "message", "start", "end")



@record(frozen=True)
class LazyBase:  # made only by the test below
    a: int
    b: str = "b"


@record(frozen=True)
class LazyChild(LazyBase):
    c: list = factory(list, compare=False)


class LazyPlain(LazyBase):  # not a record: it inherits LazyBase's __init__
    pass


def test_init_is_compiled_on_first_use_and_behaves_the_same():
    """record() leaves a stub __init__ that compiles the real one on the first call (most record
    classes are never made in a run of `check`); before and after, construction is the same."""
    stub = LazyBase.__init__
    assert stub.__qualname__ == "LazyBase.__init__"
    assert pickle.loads(pickle.dumps(LazyChild(3))).a == 3  # the child's first use: its own __init__
    assert LazyBase.__init__ is stub
    assert LazyPlain(1).b == "b" and LazyBase.__init__ is not stub  # compiled on first use, via LazyPlain
    assert (LazyBase(1).a, LazyBase(2, "x").b) == (1, "x")
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        LazyChild()
    child = LazyChild(1, c=[2])
    assert (child.a, child.b, child.c) == (1, "b", [2]) and LazyChild(1).c is not LazyChild(1).c
    with pytest.raises(AttributeError):
        LazyBase(1).a = 2


def test_the_prebuilt_inits_are_current_and_used():
    """record_inits.py holds every package record's __init__ (`python -m packgate.core.records
    --write` after changing a record's fields): the bytecode cache keeps them, no run compiles."""
    from pathlib import Path

    from packgate.core import record_inits, records
    from packgate.core.flow.facts import LaunchPath
    from packgate.core.parse.model import Word
    written = Path(record_inits.__file__).read_text(encoding="utf-8")
    assert records.prebuilt_source() == written, "run: python -m packgate.core.records --write"
    for cls in (Word, LaunchPath):
        assert cls.__init__.__code__.co_filename == record_inits.__file__
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"


@records.tuple_record
class Pair:
    """A named tuple made without typing."""

    left: int
    right: str = "r"
    extra: object = None

    @property
    def both(self) -> str:
        return f"{self.left}{self.right}"


def test_tuple_records_are_named_tuples():
    """What the flow's facts (Val, Var, Label...) rely on, as typing.NamedTuple gives it."""
    p = Pair(1)
    assert p == (1, "r", None) and tuple(p) == (1, "r", None) and isinstance(p, tuple)
    assert (p.left, p.right, p.extra) == (p[0], p[1], p[2]) == (1, "r", None)
    left, right, _ = p
    assert (left, right) == (1, "r") and p.both == "1r"
    assert Pair(right="x", left=2) == (2, "x", None) and hash(p) == hash((1, "r", None))
    assert sorted([Pair(2), Pair(1, "z")]) == [Pair(1, "z"), Pair(2)]
    assert p._replace(right="q") == Pair(1, "q") and p == Pair(1)
    with pytest.raises(ValueError):
        p._replace(nope=1)
    assert Pair._make([3, "s", 4]) == Pair(3, "s", 4) and type(Pair._make([3, "s", 4])) is Pair
    assert Pair._fields == ("left", "right", "extra") and Pair._field_defaults == {"right": "r", "extra": None}
    assert p._asdict() == {"left": 1, "right": "r", "extra": None}
    assert repr(p) == "Pair(left=1, right='r', extra=None)"
    assert pickle.loads(pickle.dumps(p)) == p and type(pickle.loads(pickle.dumps(p))) is Pair
    with pytest.raises(AttributeError):
        p.left = 5
    with pytest.raises(TypeError):
        Pair()
    assert Pair.__doc__ == "A named tuple made without typing." and Pair.__qualname__ == "Pair"


def test_the_flow_facts_are_tuple_records():
    from packgate.core.flow.facts import Label, LabelKind, Val, ValKind
    assert Val._fields[:3] == ("kind", "text", "via") and Val(ValKind.KNOWN, "1").text == "1"
    assert Label(3, LabelKind.THEN).key == "then" and Label.__new__.__qualname__ == "Label.__new__"
