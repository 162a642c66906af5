"""Word evaluation's shortcuts (flow/values.py) give what the general evaluation gives: a word of
one part is evaluated without joining a list of parts, and a literal word's value is kept in
one cache per kind of file (the main script, sourced files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgate.core.flow.analysis import Flow
from packgate.core.flow.facts import Val, ValKind, Var
from packgate.core.flow.state import State
from packgate.core.flow.values import concat
from packgate.core.parse import parse_bytes
from packgate.core.parse.model import Assign, Command
from packgate.core.parse.visit import walk

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples").glob("*.sh")) + sorted((ROOT / "tests" / "golden" / "cases").glob("*.sh"))


def _words(script) -> list:
    out = []
    for st in walk(script.body):
        if type(st) is Command:
            out.extend(st.words)
            st = None
        if type(st) is Assign:
            out.extend(w for w in [st.value] + list(st.array or []) if w is not None)
    return out


def _general(evaluator, word, s: State) -> Val:
    """The evaluation without shortcuts: every part, joined."""
    sourced = evaluator.where.sourced
    if word.text is not None:
        parts = word.parts
        lit = (parts[0].start, parts[0].end) if len(parts) == 1 else None
        return Val(ValKind.KNOWN, word.text, "", lit, (word.start, word.end), sourced)
    v = concat([evaluator.part(p, s) for p in word.parts])
    return v._replace(span=(word.start, word.end), foreign=v.foreign or sourced)  # every other field as it came


def _state() -> State:
    known = Var(Val(ValKind.KNOWN, "4"), True, None)
    return State({"MBS": known, "STAGE": Var(Val(ValKind.KNOWN, "sft"), False, None),
                  "OFFLINE_PACKING_BMR": known})


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
@pytest.mark.parametrize("sourced", [False, True], ids=["main", "sourced"])
def test_every_word_has_the_value_the_general_evaluation_gives(path, sourced):
    data = path.read_bytes()
    script = parse_bytes(data)
    fast, slow = Flow(script, data), Flow(script, data)
    fast.where.sourced = slow.where.sourced = sourced
    for word in _words(script):
        for _ in range(2):  # the second time, a literal comes from the cache
            assert fast.evaluator.value(word, _state()) == _general(slow.evaluator, word, _state()), \
                (path.name, word.raw)


def test_a_literal_keeps_one_value_per_kind_of_file():
    """The same literal word evaluated while a sourced file is walked and after: each time with
    the `foreign` mark of where the walk is (a function of a sourced file runs in the script)."""
    data = b"echo 'ready'\n"
    script = parse_bytes(data)
    word = script.body.body[0].words[1]
    flow = Flow(script, data)
    flow.where.sourced = True
    assert flow.evaluator.value(word, _state()).foreign
    flow.where.sourced = False
    assert not flow.evaluator.value(word, _state()).foreign
    flow.where.sourced = True
    assert flow.evaluator.value(word, _state()).foreign
