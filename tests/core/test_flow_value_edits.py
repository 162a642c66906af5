"""Edits that change a value the rest of the script carries to its launches (a gate, the
micro-batch size, an array of arguments): the paths after such an edit never meet the last
walk's again, so an editor's walk resumes before the edit and walks on to the end (issue 30 asks
for a re-walk that follows only what reads the changed names; these cases are its differential
net). Whatever the incremental walk takes over, the findings and launch verdicts must be those of
a walk from the top: checked on every digit of texts built for it (a value read by a later
condition, a function, a loop, a library function, several paths) and on runs of edits at
several places between two analyses."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from packgate.core.engine import analyze
from packgate.core.text import Source
from packgate.lsp.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402

LONG = os.environ.get("PACKGATE_FUZZ_LONG") == "1"  # `make fuzz`: every digit, else every third

_STEPS = "".join(f"echo step{i}\nA_{i}=(--x {i})\n" for i in range(12))

# a value edited early, carried to every later launch; between them statements that read it
# (a condition, a function, a loop, an array, a library function) and many that do not
FLOWS = """#!/bin/bash
set -eu
MBS="${4:-2}"
export OFFLINE_PACKED_DATA=1
export OFFLINE_PACKING_BMR=1
N_LAYERS=36
""" + _STEPS + """
check() {
    if [[ "${OFFLINE_PACKING_BMR}" != "${OFFLINE_PACKED_DATA}" ]]; then
        echo mismatch >&2
        return 1
    fi
}
quiet() { echo "step $N_LAYERS"; }
lib() { torchrun aiak_training_llm/train.py --micro-batch-size "$MBS"; }
ARGS=(--num-layers "$N_LAYERS" --micro-batch-size "$MBS")
""" + _STEPS.replace("step", "mid") + """
if [ "$OFFLINE_PACKED_DATA" = 1 ]; then
    echo packed
fi
check
quiet
for i in 1 2; do
    echo "$i $MBS"
done
for name in a b; do
    echo "$name"
done
""" + _STEPS.replace("step", "late") + """
torchrun aiak_training_llm/train.py "${ARGS[@]}"
export OFFLINE_PACKED_DATA=0
torchrun aiak_training_llm/train.py --micro-batch-size 1
"""

# the same value edited after the paths split: each path holds its own Var of the changed name
SPLIT = FLOWS.replace("N_LAYERS=36\n", """case "${STAGE:-a}" in
    a) LR=1 ;;
    b) LR=2 ;;
    *) exit 1 ;;
esac
[ -n "${DEBUG:-}" ] && echo debug
N_LAYERS=36
""")

# the real launcher the benchmark types into
LAUNCHER = (ROOT / "benchmarks" / "inputs" / "ov2_stage2_launcher.sh").read_text(encoding="utf-8")


def facts(analysis) -> tuple:
    return ([(f.code, f.start, f.end, f.message, tuple((x.description, x.edits) for x in f.fixes), f.related,
              dict(f.data)) for f in analysis.findings], analysis.launch_summaries)


def _digits(text: str) -> list:
    """The byte offset of every digit of the text."""
    data = text.encode()
    return [i for i, c in enumerate(data) if 48 <= c <= 57]


def _type_and_compare(text: str, edits: list) -> int:
    """Each (start, end, inserted) applied in turn to the text, analysed after each as an
    editor's session would, compared with a walk from the top; how many analyses walked."""
    session, uri = Session(), "untitled:values"
    session.analysis(uri, 0, text)
    walked = 0
    for version, (a, b, inserted) in enumerate(edits, start=1):
        text = session.splice(uri, Source(text), a, b, inserted)
        entry, _ = session.analysis(uri, version, text)
        if entry.analysis.flow is None:
            continue
        assert facts(entry.analysis) == facts(analyze(text)), (version, a, b, inserted)
        walked += 1
    return walked


@pytest.mark.parametrize("name,text", [("flows", FLOWS), ("split", SPLIT), ("launcher", LAUNCHER)])
def test_every_digit_typed_and_deleted_gives_the_walk_from_the_top(name, text):
    """A digit typed after every digit of the text and deleted again (the next edit starts from
    the text and the walk the last left)."""
    edits = []
    for at in _digits(text)[::1 if LONG else 3]:
        edits += [(at + 1, at + 1, "7"), (at + 1, at + 2, "")]
    assert _type_and_compare(text, edits) > len(edits) // 2


@pytest.mark.parametrize("name,text", [("flows", FLOWS), ("split", SPLIT), ("launcher", LAUNCHER)])
def test_runs_of_edits_far_apart_give_the_walk_from_the_top(name, text):
    """Digits typed at two or three places before each analysis, and lines inserted or removed."""
    rng = random.Random(name)
    session, uri = Session(), "untitled:runs"
    session.analysis(uri, 0, text)
    for version in range(1, 60):
        for _ in range(rng.choice((1, 2, 3))):
            data = text.encode()
            roll = rng.random()
            if roll < 0.7:
                at = rng.choice(_digits(text))
                a, b, inserted = at, at + rng.choice((0, 1)), rng.choice(("1", "9", "", "x"))
            else:
                starts = [0] + [i + 1 for i, c in enumerate(data) if c == 10]
                a = rng.choice(starts)
                b = a if roll < 0.85 else data.find(b"\n", a) + 1 or len(data)
                inserted = rng.choice(("N_LAYERS=7\n", "export MBS=3\n", "unset ARGS\n", "")) if a == b else ""
            text = session.splice(uri, Source(text), a, b, inserted)
        entry, _ = session.analysis(uri, version, text)
        if entry.analysis.flow is None or entry.analysis.script.has_error:
            continue
        assert facts(entry.analysis) == facts(analyze(text)), (version, text)


def test_a_value_read_by_few_statements():
    """A digit of MBS's default: read by ARGS, a loop, the library function and the launches."""
    at = FLOWS.encode().index(b'MBS="${4:-2}"') + len(b'MBS="${4:-')
    _type_and_compare(FLOWS, [(at, at + 1, "8"), (at, at + 1, "2")])


def test_an_irrelevant_value_lets_the_rest_be_taken_over_at_once():
    """N_LAYERS reaches no check (a quoted word of the launch): the paths meet at once."""
    at = FLOWS.encode().index(b"N_LAYERS=36") + len(b"N_LAYERS=3")
    session, uri = Session(), "untitled:irrelevant"
    session.analysis(uri, 0, FLOWS)
    text = session.splice(uri, Source(FLOWS), at, at + 1, "2")
    entry, _ = session.analysis(uri, 1, text)
    assert entry.analysis.walk.resynced_at > 0
    assert facts(entry.analysis) == facts(analyze(text))


def test_a_library_function_reading_the_value_is_walked_again():
    """lib (never called) reads MBS: after MBS changes, its launch sees the new value."""
    at = FLOWS.encode().index(b'MBS="${4:-2}"') + len(b'MBS="${4:-')
    _type_and_compare(FLOWS, [(at, at + 1, "8"), (at, at + 1, "1")])


def test_an_edit_early_in_a_generated_launcher():
    """generate()'s launchers: a digit in the first stage's arguments, typed and deleted."""
    text = generate(400, 3)
    at = text.encode().index(b"--num-workers ") + len(b"--num-workers ")
    _type_and_compare(text, [(at, at, "1"), (at, at + 1, ""), (at, at, "2")])
