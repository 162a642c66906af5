"""The walk's parts (flow/analysis.py's Flow) refer to each other while they walk; once the
walk is done nothing of it may wait for the cycle collector, which an analysis pauses."""

from __future__ import annotations

import gc

from packgate.core.engine import Previous, analyze
from packgate.core.settings import Settings

_TEXT = """#!/bin/bash
set -euo pipefail
stage() {
    local mbs="$1"
    export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
    for n in 1 2; do echo "$n"; done
    case "$mbs" in 1) torchrun aiak_training_llm/train.py --micro-batch-size "$mbs" ;; *) exit 1 ;; esac
}
unused() { export NCCL_DEBUG=INFO; }
bash -c 'export OFFLINE_PACKED_DATA=0'
env -u OFFLINE_PACKING_VQA nohup stage 1
declare -i N=2
unset N
"""


def _unreachable(run) -> int:
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        if was:
            gc.enable()


def test_a_lint_leaves_no_reference_cycle():
    settings = Settings(profile="ov2")
    assert _unreachable(lambda: [analyze(_TEXT, settings=settings) for _ in range(3)]) == 0


def test_an_editor_walk_leaves_none_either():
    settings = Settings(profile="ov2")

    def edits():
        first = analyze(_TEXT, settings=settings, previous=Previous())
        analyze(_TEXT.replace("N=2", "N=3"), settings=settings,
                previous=Previous(resume=first.walk.resume))
    assert _unreachable(edits) == 0


def test_the_recorders_logs_are_its_tables_in_order():
    """record.TABLES describes the logs Recorder.logs() returns: the same fields, in that order."""
    from packgate.core.flow.record import TABLES, Recorder
    rec = Recorder()
    assert [id(getattr(rec, t.name)) for t in TABLES] == [id(log) for log in rec.logs()]
