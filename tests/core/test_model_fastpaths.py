"""The model builder's shortcuts give exactly the model of its general walk.

parse.build.Builder.word builds literal words, plain quoted strings, words that are one plain
expansion ("${X}", "$X", "${A[@]}", ${X}) directly, and quoted strings with expansions in one pass
over their children (words._quoted); the general walk (words.WordBuilder._word) must give
the same parts, spans, text and occurrences for every word.
"""

import dataclasses
from pathlib import Path

import pytest

from packgate.core import parse as P
from packgate.core import records

ROOT = Path(__file__).resolve().parents[2]

TRICKY = (
    'A="a\\"b" B=\'\' C="" D=10#$x E=$\'x\\n\' F="  spaced  " G=--micro-batch-size=4\n'
    'torchrun train.py "--micro-batch-size" 1 --micro-batch-size "$M" \'--micro-batch-size\' 2\n'
    'echo "中文 😀" \'单引号\' 词 a\\ b "a`b`" "$(x)" "${Y:-"d"}" 0x1F -1 ~/x *.py\n'
    'X=( "a" \'b\' c "" \'\' "d e" )\n'
    'Z="${A}/x/${B[@]}" "$X:$Y" " ${X}  $Y " "a\\"$X\\\\" "${X}${Y}" "$é$X" "${A[*]}y" "$X$" "x$(y)$Z"\n'
    'log "--micro-batch-size=${M}" "--micro-batch-size$X" "${X}--micro-batch-size" "${OFFLINE_PACKED_DATA}/d"\n'
    'run "${A[@]}" "${A[*]}" "${A[0]}" "$_" ${X} $X "$X" "${OFFLINE_PACKING_BMR}" $OFFLINE_PACKED_DATA\n'
    'run $1 "$1" "${1}" "$@" "${X}"y "${X}${Y}" "$X-" ${A[@]} "${#A[@]}" "${!A}" "${X,,}" "$é" "${X}\\"\n'
    'Y=( "${A[@]}" "${OFFLINE_PACKING_VQA}" ${B} "${B}/x" )\n'
)


def _part(p) -> tuple:
    if isinstance(p, P.Ref):
        return ("Ref", p.name, p.start, p.end, p.name_start, p.name_end, p.op, p.array_all, p.quoted,
                None if p.arg is None else (p.arg.start, p.arg.end, [_part(q) for q in p.arg.parts]))
    return (type(p).__name__, getattr(p, "text", None), p.start, p.end)


def _dump(script) -> list:
    out = []

    def walk(o):
        if isinstance(o, P.Word):
            out.append((o.start, o.end, o.quote, o.raw, o.text, o.effects, [_part(p) for p in o.parts]))
            return
        if isinstance(o, list):
            for x in o:
                walk(x)
            return
        if records.is_record(o):
            for name in records.fields(o):
                walk(getattr(o, name))
        elif dataclasses.is_dataclass(o) and not isinstance(o, type):
            for f in dataclasses.fields(o):
                walk(getattr(o, f.name))

    walk(script.body)
    out.append([(o.name, o.start, o.end, o.kind) for o in script.occurrences])
    return out


def _inputs():
    files = sorted((ROOT / "tests" / "golden" / "cases").glob("*.sh")) + sorted((ROOT / "examples").glob("*.sh"))
    return [("tricky", TRICKY.encode())] + [(f.name, f.read_bytes()) for f in files]


@pytest.mark.parametrize("name,data", _inputs(), ids=lambda v: v if isinstance(v, str) else "")
def test_shortcut_words_equal_the_general_walk(name, data, monkeypatch):
    fast = _dump(P.parse_bytes(data))
    monkeypatch.setattr(P.build.Builder, "word", lambda self, node, d: self._word(node, d, node.type))
    slow = _dump(P.parse_bytes(data))
    assert fast == slow


def test_quoted_strings_with_expansions_take_the_one_pass_path(monkeypatch):
    taken = []
    quoted = P.build.Builder._quoted
    monkeypatch.setattr(P.build.Builder, "_quoted", lambda self, node, raw_b, sb, eb, d:
                        taken.append(raw_b) or quoted(self, node, raw_b, sb, eb, d))
    P.parse_bytes(TRICKY.encode())
    assert {b'"${A}/x/${B[@]}"', b'"$X:$Y"', b'" ${X}  $Y "', b'"x$(y)$Z"', b'"${Y:-"d"}"'} <= set(taken)


def test_records_behave_like_slotted_dataclasses():
    @records.record
    class Base:
        start: int
        end: int

    @records.record
    class Child(Base):
        name: str = ""
        items: list = records.factory(list)
        arg: object = None

    a = Child(1, 2)
    b = Child(start=3, end=4, name="x", items=[1])
    assert (a.start, a.end, a.name, a.items, a.arg) == (1, 2, "", [], None)
    assert (b.start, b.end, b.name, b.items) == (3, 4, "x", [1])
    assert a.items is not Child(0, 0).items  # a fresh list per instance
    assert records.fields(a) == ("start", "end", "name", "items", "arg")
    assert not hasattr(a, "__dict__") and isinstance(a, Base)
    assert a != Child(1, 2) and a == a  # identity equality
    assert repr(b) == "Child(start=3, end=4, name='x', items=[1], arg=None)"
    with pytest.raises(TypeError):
        Child(1)  # end has no default
    with pytest.raises(AttributeError):
        a.other = 1  # slotted
    assert records.is_record(a) and not records.is_record(Child) and not records.is_record(1)


def test_is_name_is_the_shell_name_pattern():
    """words.is_name stands for the regex [A-Za-z_][A-Za-z0-9_]* (whole text) without compiling it."""
    import re

    from packgate.core.parse.words import is_name
    samples = ["", "A", "_", "_1", "a1b2", "1a", "A-B", "A B", "é", "aé", "名字", "A\n", "\nA", "A=", "a.b",
               "OFFLINE_PACKING_BMR", "x" * 300, "ﬁ", "Ａ", "a٣", "$A", "A[0]"]
    for text in samples:
        assert is_name(text) == bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text)), text
