"""Pathological shapes stay bounded: nesting, chains, sizes (see docs/reliability.md)."""

import time

from packgate import Settings, analyze
from packgate.core.engine import MAX_UNITS

EN = Settings(lang="en")
LAUNCH = "torchrun train.py --micro-batch-size 1\n"


def timed(text):
    started = time.process_time()
    a = analyze(text, settings=EN)
    return a, time.process_time() - started


def test_nested_loops_walk_each_body_once():
    text = "for a in 1 2 3; do\n" * 13 + "export OFFLINE_PACKING_BMR=$a\n" + "done\n" * 13 + LAUNCH
    a, spent = timed(text)
    assert spent < 10  # items**depth would be 1.6 million walks
    assert {f.code for f in a.findings} >= {"PG007"} or a.findings


def test_long_and_or_chains_keep_paths_and_labels_bounded():
    text = "c && export OFFLINE_PACKING_BMR=1 || export OFFLINE_PACKED_DATA=1\n" * 400 + LAUNCH
    a, spent = timed(text)
    assert spent < 20
    for launch in a.flow.launches:
        assert len(launch.paths) <= 64
        assert all(len(p.labels) <= 6 for p in launch.paths)


def test_deep_call_chain_is_not_a_recursion_error():
    text = "".join(f"f{i}() {{ f{i + 1}; }}\n" for i in range(1500)) + "f1500() { :; }\nf0\n" + LAUNCH
    a, _ = timed(text)
    assert a.note == ""


def test_too_many_commands_is_too_large_not_a_memory_blowup():
    a = analyze("a|" * (MAX_UNITS + 1) + "a\n", settings=EN)
    assert a.findings == [] and a.note.startswith("too large to analyze")
