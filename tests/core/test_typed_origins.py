"""Values carry a typed origin (Val.origin, Val.name, Val.required) that the rules read; `via` is
display text only. Verdicts and gate states are enum members."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgate import analyze, lint
from packgate.core import gates as G
from packgate.core.flow import Origin, ValKind
from packgate.core.records import replace
from packgate.core.rules import pg005_invalid_value as pg005
from packgate.core.rules.base import Context, gate_state
from packgate.core.rules.packing import path_verdict
from packgate.core.settings import Settings

LAUNCH = "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1\n"
GOLDEN = sorted((Path(__file__).parent.parent / "golden" / "cases").glob("*.sh"))


def _site_val(text: str, name: str = "OFFLINE_PACKED_DATA"):
    """The value the (last) assignment of a gate gave."""
    flow = analyze(text, settings=Settings(profile="ov2")).flow
    return [val for a, val in flow.gate_sites if a.name == name][-1]


def _informed(text: str) -> list:
    return [f.message for f in lint(text, profile="ov2") if f.code == "PG005" and f.severity == "information"]


@pytest.mark.parametrize("word, origin, name", [
    ('"${SOME_VAR}"', Origin.CALLER, "SOME_VAR"),
    ("$SOME_VAR", Origin.CALLER, "SOME_VAR"),
    ('"$2"', Origin.ARGUMENT, "2"),
    ('"${2:-true}"', Origin.DEFAULT, "2"),
    ('"${A:-${B:-0}}"', Origin.DEFAULT, "A"),
    ("1", Origin.LITERAL, ""),
    ('"$(cat f)"', Origin.UNKNOWN, ""),
    ('"$#"', Origin.UNKNOWN, ""),
    ('"${SOME_VAR}1"', Origin.UNKNOWN, ""),  # not the caller's variable as it came
])
def test_a_value_says_where_it_comes_from(word, origin, name):
    val = _site_val(f"export OFFLINE_PACKED_DATA={word}\n" + LAUNCH)
    assert (val.origin, val.name) == (origin, name), val


def test_a_variable_keeps_the_origin_of_its_value():
    val = _site_val('X="${SOME_VAR}"\nexport OFFLINE_PACKED_DATA="$X"\n' + LAUNCH)
    assert (val.kind, val.origin, val.name) == (ValKind.UNKNOWN, Origin.CALLER, "SOME_VAR")
    assert _site_val('read X < f\nexport OFFLINE_PACKED_DATA="$X"\n' + LAUNCH).origin == Origin.UNKNOWN


@pytest.mark.parametrize("options", ["set -u\n", "set -euo pipefail\n"])
def test_set_u_marks_the_caller_variable_required_without_hiding_who_it_is(options):
    """Under set -u the display text says the caller must have set it; the typed fields keep
    saying whose variable it is, and PG005 keeps quiet because of `required`, not the text."""
    text = options + 'export OFFLINE_PACKED_DATA="${SOME_VAR}"\nexport OFFLINE_PACKING_BMR=1\n' + LAUNCH
    val = _site_val(text)
    assert (val.origin, val.name, val.required) == (Origin.CALLER, "SOME_VAR", True)
    assert "set -u" in val.via  # the display text may say anything
    assert _informed(text) == []
    loose = _site_val(text.replace(options, ""))
    assert (loose.origin, loose.name, loose.required) == (Origin.CALLER, "SOME_VAR", False)
    assert ["takes $SOME_VAR from the caller" in m for m in _informed(text.replace(options, ""))] == [True]


def test_pg005_reads_the_typed_origin_not_the_display_text():
    """Rewording `via` (as set -u did) changes no finding: before, PG005 matched a regex against
    it, so any change to the wording turned the finding about a caller's variable on or off."""
    text = ('export OFFLINE_PACKING_BMR="${SOME_VAR}"\nexport OFFLINE_PACKED_DATA="$2"\n' + LAUNCH)
    analysis = analyze(text, settings=Settings(profile="ov2"))

    def findings(flow) -> list:
        ctx = Context(analysis.source, analysis.script, flow, analysis.profile, "en")
        pg005.check(ctx)
        return [(f.start, f.end, f.message) for f in ctx.findings]

    plain = findings(analysis.flow)
    assert len(plain) == 2, plain
    reworded = replace(analysis.flow, gate_sites=[
        (a, val._replace(via=f"the caller's {val.via}, shown some other way")) for a, val in analysis.flow.gate_sites])
    assert findings(reworded) == plain


@pytest.mark.parametrize("setup", [
    'read X < f\nexport OFFLINE_PACKED_DATA="$X"',  # was "takes $read from the caller"
    'read X < f\nexport OFFLINE_PACKED_DATA="${X:+1}"',
    'eval "$CMD"\nexport OFFLINE_PACKED_DATA="$OFFLINE_PACKING_VQA"',  # was "takes $eval"
    'export OFFLINE_PACKED_DATA="${!N}"',  # was "takes $expansion"
    'export OFFLINE_PACKED_DATA="${SOME_VAR}1"',  # 1 when the caller leaves it unset: on
    'for X in $(ls); do :; done\nexport OFFLINE_PACKED_DATA="$X"',  # was "takes $X": the loop set it
])
def test_no_caller_information_for_a_value_no_caller_gives(setup):
    assert _informed("export OFFLINE_PACKING_BMR=1\n" + setup + "\n" + LAUNCH) == []


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_every_value_the_walk_leaves_has_a_consistent_origin(path):
    """An unknown value is never typed as the script's literal; a caller's variable or argument
    always names it."""
    analysis = analyze(path.read_text(encoding="utf-8"), path=str(path), settings=Settings(profile="ov2"))
    if analysis.flow is None:
        return
    vals = [val for _, val in analysis.flow.gate_sites]
    for launch in analysis.flow.launches:
        for p in launch.paths:
            vals.extend(seen.val for seen in p.gates.values())
            if p.mbs is not None:
                vals.append(p.mbs)
    for val in vals:
        assert not (val.kind == ValKind.UNKNOWN and val.origin == Origin.LITERAL), val
        if val.origin in (Origin.CALLER, Origin.ARGUMENT, Origin.INHERITED):
            assert val.name, val
        if val.required:
            assert val.origin in (Origin.CALLER, Origin.ARGUMENT), val


def test_verdicts_and_gate_states_are_enum_members():
    text = "export OFFLINE_PACKING_BMR=1\n" + LAUNCH
    analysis = analyze(text, settings=Settings(profile="ov2"))
    ctx = Context(analysis.source, analysis.script, analysis.flow, analysis.profile, "en")
    path = analysis.flow.launches[0].paths[0]
    verdict = path_verdict(ctx, path)[0]
    assert verdict is G.Verdict.LEAK
    assert gate_state(path.gates[G.BMR], ctx.profile, G.BMR) is G.GateState.ON
    assert gate_state(path.gates[G.PACKED], ctx.profile, G.PACKED) is G.GateState.OFF
    assert G.int_gate("true") is G.GateState.INVALID
    assert set(G.COMBOS.values()) <= set(G.Verdict) and set(G.VERDICT_LABEL) <= set(G.Verdict)


_PACKED = "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n"


@pytest.mark.parametrize("words,kind,text", [
    ('--micro-batch-size 4 "$@"', ValKind.DEFAULT, "4"),  # the caller's words may give it again
    ('--micro-batch-size=4 "$@"', ValKind.DEFAULT, "4"),
    ('"$@" --micro-batch-size 4', ValKind.KNOWN, "4"),  # argparse keeps the last one: the script's
    ('--micro-batch-size 4 --lr 1e-4', ValKind.KNOWN, "4"),
])
def test_a_micro_batch_size_an_unread_word_follows_is_the_scripts_default(words, kind, text):
    [launch] = analyze(_PACKED + f"torchrun train.py {words}\n", settings=Settings(profile="ov2")).flow.launches
    [path] = launch.paths
    assert (path.mbs.kind, path.mbs.text) == (kind, text)
    assert path.mbs.origin is (Origin.DEFAULT if kind is ValKind.DEFAULT else Origin.LITERAL)


def test_pg003_says_default_where_the_callers_words_may_override_and_nothing_for_1():
    [f] = [f for f in lint(_PACKED + 'torchrun train.py --micro-batch-size 4 "$@"\n', profile="ov2")
           if f.code == "PG003"]
    assert f.severity == "error" and "defaults to 4" in f.message
    assert [f for f in lint(_PACKED + 'torchrun train.py --micro-batch-size 1 "$@"\n', profile="ov2")
            if f.code == "PG003"] == []
