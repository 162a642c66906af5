"""Pathological shapes stay bounded: nesting, chains, sizes (see docs/reliability.md)."""

import time

from packgate import Settings, analyze
from packgate.core.files import MAX_UNITS

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


def _steps(text, monkeypatch):
    """The statements the walk steps through (a count, not a clock)."""
    from packgate.core import flow
    count = [0]
    real = flow.walk.Walker.step

    def counting(self, stmt, states):
        count[0] += 1
        return real(self, stmt, states)
    monkeypatch.setattr(flow.walk.Walker, "step", counting)
    a = analyze(text, settings=EN)
    return a, count[0]


def test_a_helper_that_calls_itself_is_walked_once_per_call(monkeypatch):
    """A half-typed `}` makes the helper's body run to the end of the file, calls of itself
    included: two such calls per body cost 2**depth walks (minutes) before calls of a function
    already being walked were skipped."""
    text = ("need_dir() {\n    [[ -d \"$1\" ]] || { echo \"missing $1\" >&2; exit 1; }\n"
            "export OFFLINE_PACKED_DATA=1\nif [ \"$STAGE\" = 2 ]; then\n    export OFFLINE_PACKING_BMR=1\nfi\n"
            "need_dir /data/a\nneed_dir /data/b\n[[ -n \"$X\" ]] || exit 1\n" + LAUNCH)
    a, steps = _steps(text, monkeypatch)
    assert steps < 200, steps
    assert a.findings  # still judged


def test_calls_that_fan_out_are_cut_at_the_call_budget(monkeypatch):
    """Eight functions, each calling the next four times: 4**8 walks of the last body without
    a bound. The calls of one top-level statement stop at MAX_CALL_STEPS statements."""
    from packgate.core.flow import MAX_CALL_STEPS
    lines = []
    for i in range(8):
        body = f"X{i}=$RANDOM; " + "; ".join([f"f{i + 1}"] * 4) if i < 7 else "export OFFLINE_PACKING_BMR=$RANDOM"
        lines.append(f"f{i}() {{ {body}; }}")
    text = "\n".join(lines) + "\nf0\n" + LAUNCH
    a, steps = _steps(text, monkeypatch)
    assert steps < 2 * MAX_CALL_STEPS, steps
    assert a.flow.truncated


def _too_large_by_counting(data: bytes, files) -> str:
    """too_large's answer by counting every unit, word and mark (what its bounds stand for)."""
    n = len(data)
    if n > files.MAX_BYTES:
        return "bytes"
    if n - len(data.translate(None, b"\n;|&`")) + data.count(b"$(") > files.MAX_UNITS:
        return "units"
    if n - len(data.translate(None, b" \t")) > files.MAX_WORDS:
        return "words"
    if n - len(data.translate(None, b"".join(files.MARKS))) > files.MAX_MARKS:
        return "marks"
    return ""


def test_the_size_bounds_skip_counting_only_where_the_count_could_not_pass_them(monkeypatch):
    """too_large skips its passes when the text is no longer than every limit (each count is at
    most one a byte, a `$(` one for two): with small limits, random texts around them, some all
    separators and substitutions, get the answer of counting everything."""
    import random

    from packgate.core import files

    monkeypatch.setattr(files, "MAX_UNITS", 60)
    rng = random.Random(7)
    pieces = [b"a", b" ", b"\n", b";", b"$(", b"(", b")", b"$", b"|", b'"', b"\t", b"x=1 "]
    kinds = {"": "", "units": "lines", "words": "blanks", "marks": "expansions"}
    for case in range(600):
        monkeypatch.setattr(files, "MAX_WORDS", rng.choice([20, 40, 10**6, 10**6]))
        monkeypatch.setattr(files, "MAX_MARKS", rng.choice([20, 40, 10**6, 10**6]))
        if case % 3:
            data = b"".join(rng.choice(pieces) for _ in range(rng.randint(20, 70)))
        else:  # separators only: a unit a byte, as many as the bound allows
            data = b"".join(rng.choice([b"\n", b";", b"|", b"&"]) for _ in range(rng.randint(50, 70)))
        expected = _too_large_by_counting(data, files)
        got = files.too_large(data)
        assert (got == "") == (expected == ""), (case, data, got, expected)
        assert kinds[expected] in got, (case, data, got, expected)
