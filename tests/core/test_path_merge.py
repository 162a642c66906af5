"""Walker.merge: paths that cannot lead to different findings are walked once. Paths that ran
the same assignments after a fork hold equal variables made apart (different Var objects), so
their marks differ; they merge all the same, or every later statement is walked twice."""

from __future__ import annotations

from packgate.core import flow as F
from packgate.core.flow.facts import Val, ValKind, Var
from packgate.core.flow.state import State
from packgate.core.flow.walk import Walker
from packgate.core.parse import parse_bytes

# the `if` forks on the caller's WANDB_API_KEY; nothing merges the two paths before each
# assigns ARGS and MBS on its own; the `case` after them is the next merge
TEXT = """#!/bin/bash
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "${WANDB_API_KEY:-}" ]; then
    echo "reports to wandb"
fi
ARGS=(--seq-length 8192)
MBS=1
case "$STAGE" in
    *) echo "stage $STAGE" ;;
esac
torchrun aiak_training_llm/train.py "${ARGS[@]}" --micro-batch-size "$MBS"
"""


def test_paths_with_equal_variables_made_apart_merge():
    result = F.analyze_flow(parse_bytes(TEXT.encode()), TEXT.encode())
    assert [len(launch.paths) for launch in result.launches] == [1]


def _path(value: str) -> State:
    return State({"OFFLINE_PACKED_DATA": Var(Val(ValKind.KNOWN, value), True, None)})


def test_merge_compares_values_where_the_marks_differ():
    a, b, c = _path("1"), _path("1"), _path("0")
    assert a.mark != b.mark and a.same_values(b) and not a.same(b)
    assert Walker.merge([a, b, c]) == [a, c]


def test_paths_that_differ_in_what_they_know_do_not_merge():
    a, b = _path("1"), _path("1")
    b.status = 1
    assert Walker.merge([a, b]) == [a, b]
    b.status, b.allexport = a.status, True
    assert not a.same_values(b) and Walker.merge([a, b]) == [a, b]


def test_among_many_paths_only_identical_ones_merge():
    # past MAX_VALUE_MERGE paths the value comparison costs more than it saves (most differ)
    from packgate.core.flow.walk import MAX_VALUE_MERGE
    paths = [_path("1") for _ in range(MAX_VALUE_MERGE + 1)]
    assert Walker.merge(paths) == paths
    assert Walker.merge(paths[:MAX_VALUE_MERGE]) == paths[:1]
