"""Minimal reproducers of the bugs the fuzzers found in the core, kept as regression tests.

They were strict xfails until the engine was fixed; they stay as regression tests. A new bug
found by the fuzzers gets a strict xfail here (and a tolerance in known.py) until it is fixed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from fuzz_props import EN
from rawlsp import server_env as cli_env
from packgate.core.engine import analyze
from packgate.core.text import apply_edits


def _disable_for_command(text: str, code: str) -> str:
    analysis = analyze(text, settings=EN)
    finding = next(f for f in analysis.findings if f.code == code)
    fix = next(x for x in finding.fixes if x.kind == "disable" and "command" in x.description)
    return apply_edits(analysis.source.data, fix.edits).decode("utf-8")


@pytest.mark.parametrize("sep", ["; ", " & ", " && "])
def test_disable_for_this_command_second_on_its_line(sep):
    text = f"true\necho hi{sep}export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
    found = [f.code for f in analyze(text, settings=EN).findings]
    assert len(found) == 1  # PG001; PG007 after `&&`, where the export may not run
    fixed = _disable_for_command(text, found[0])
    assert [f.code for f in analyze(fixed, settings=EN).findings] == []


@pytest.mark.parametrize("text", [
    "true\necho hi | export OFFLINE_PACKED_DATA=1\ntorchrun train.py\n",
    "true\necho hi |\n  export OFFLINE_PACKED_DATA=1\ntorchrun train.py\n",
    "true\necho hi && \\\n  export OFFLINE_PACKED_DATA=1 &\ntorchrun train.py\n",
], ids=["one-line-pipeline", "two-line-pipeline", "continued-and-list"])
def test_disable_for_this_command_in_a_pipeline_or_list(text):
    found = [f.code for f in analyze(text, settings=EN).findings]
    assert found == ["PG006"]
    fixed = _disable_for_command(text, "PG006")
    assert [f.code for f in analyze(fixed, settings=EN).findings] == []
    assert fixed.count("\n") == text.count("\n") + 1  # one line added, none split


def test_disable_for_this_command_first_on_its_line():
    """The working neighbour of the bug above: the same line with the finding first."""
    text = "true\nexport OFFLINE_PACKING_BMR=1; echo hi\ntorchrun train.py --micro-batch-size 1\n"
    fixed = _disable_for_command(text, "PG001")
    assert [f.code for f in analyze(fixed, settings=EN).findings] == []


def test_pg004_fix_exports_only_its_gate():
    text = "OFFLINE_PACKING_BMR=1 FOO=2\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py --micro-batch-size 1\n"
    analysis = analyze(text, settings=EN)
    finding = next(f for f in analysis.findings if f.code == "PG004")
    fix = next(x for x in finding.fixes if x.kind == "fix")
    fixed = apply_edits(analysis.source.data, fix.edits).decode("utf-8")
    assert "export FOO" not in fixed and not fixed.startswith("export OFFLINE_PACKING_BMR=1 FOO=2"), fixed


def test_nul_in_a_sourced_path(tmp_path):
    analyze(". ./a\0b\n", path=str(tmp_path / "train.sh"), settings=EN)


def test_cli_nul_in_a_sourced_path_after_8k(tmp_path):
    script = tmp_path / "train.sh"
    script.write_bytes(b"#" * 9000 + b"\n. ./a\0b\n")
    out = subprocess.run([sys.executable, "-m", "packgate", "check", str(script)], capture_output=True,
                         timeout=60, env=cli_env())
    assert b"Traceback" not in out.stderr, out.stderr.decode(errors="replace")[-600:]
    assert out.returncode == 0  # skipped as binary: reported, and the status stays the findings' (none)


CRASH_RUNS = 8


def test_brace_then_astral_character_does_not_crash(tmp_path):
    script = tmp_path / "icons.sh"
    script.write_text("echo {\U000F0001}\n", encoding="utf-8")
    # The crash depends on where ASLR put libc: several processes at once make it certain.
    procs = [subprocess.Popen([sys.executable, "-m", "packgate", "check", str(script)], env=cli_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(CRASH_RUNS)]
    codes = [p.wait(60) for p in procs]
    assert all(code in (0, 1) for code in codes), codes


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_lone_surrogate_positions(encoding):
    from fuzz_props import check_positions
    text = "x\ud800 export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
    analysis = analyze(text, settings=EN)
    offset = len("x\ud800 export ".encode("utf-8", "surrogatepass"))
    assert analysis.source.position(offset, encoding) == (0, 10)
    check_positions(analysis, [offset])


@pytest.mark.parametrize("body", [
    "if [ -n \"$LEGACY\" ]; then\n    export OFFLINE_PACKING_VQA=1\nfi\n",
    "for i in 1; do\n    export OFFLINE_PACKING_VQA=1\ndone\n",
    "legacy() {\n    export OFFLINE_PACKING_VQA=1\n}\nlegacy\n",
], ids=["if", "for", "function"])
def test_fix_never_empties_a_body(body):
    _never_empties(body)


def _fix_all_around(body: str) -> tuple:
    """A launcher with both gates on around body: its text, analysis, and text after fixAll."""
    text = "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n" + body + \
        "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
    analysis = analyze(text, settings=EN)
    return text, analysis, apply_edits(analysis.source.data, analysis.fix_all_edits(unsafe=True))


def _never_empties(body: str) -> None:
    from fuzz_props import bash_accepts, empty_bodies
    text, analysis, fixed = _fix_all_around(body)
    assert [f.code for f in analysis.findings] == ["PG002"]
    assert empty_bodies(fixed) == 0, fixed.decode()
    if bash_accepts(text.encode()) is not None:
        assert bash_accepts(fixed), fixed.decode()


@pytest.mark.parametrize("body", [
    "while read -r line; do export OFFLINE_PACKING_VQA=1; done\n",
    "if [ -n \"$LEGACY\" ]; then export OFFLINE_PACKING_VQA=1; fi\n",
    "legacy() { export OFFLINE_PACKING_VQA=1; }\nlegacy\n",
], ids=["while", "if", "function"])
def test_fix_never_empties_a_one_line_body(body):
    _never_empties(body)


@pytest.mark.parametrize("body", [
    "$(export OFFLINE_PACKING_VQA=1)\n",
    "x=`export OFFLINE_PACKING_VQA=1`\n",
    "cat <(export OFFLINE_PACKING_VQA=1)\n",
], ids=["command-substitution", "backquotes", "process-substitution"])
def test_fix_never_empties_a_substitution(body):
    """Found by the long fuzz run: the removal left `$()`, which tree-sitter-bash reads as an
    error; the statement becomes `:` as in any other body."""
    from fuzz_props import error_spans
    _, analysis, fixed = _fix_all_around(body)
    assert "PG002" in [f.code for f in analysis.findings]
    assert b"OFFLINE_PACKING_VQA" not in fixed and b":" in fixed, fixed.decode()
    assert error_spans(fixed) == [], fixed.decode()


def test_fix_keeps_case_arms_whole():
    from fuzz_props import bash_accepts, error_spans
    text, analysis, fixed = _fix_all_around("case $STAGE in\n  legacy) export OFFLINE_PACKING_VQA=1;;\n"
                                            "  *) echo;;\nesac\n")
    assert [f.code for f in analysis.findings] == ["PG002"]
    assert error_spans(fixed) == [], fixed.decode()
    if bash_accepts(text.encode()) is not None:
        assert bash_accepts(fixed), fixed.decode()


@pytest.mark.parametrize("line", [
    'test -n "$LEGACY" && export OFFLINE_PACKING_VQA=1',
    'test -n "$LEGACY" || export OFFLINE_PACKING_VQA=1',
    "echo legacy | export OFFLINE_PACKING_VQA=1",
    "export OFFLINE_PACKING_VQA=1 &",
    "export OFFLINE_PACKING_VQA=1 & echo started",
    'test -n "$LEGACY" &&\n    export OFFLINE_PACKING_VQA=1',
    'test -n "$LEGACY" && \\\n    export OFFLINE_PACKING_VQA=1',
    "export OFFLINE_PACKING_VQA=1 || echo failed",
    "export OFFLINE_PACKING_VQA=1 | tee /dev/null",
    "export OFFLINE_PACKING_VQA=1 && echo set",
], ids=["and", "or", "pipe", "background", "background-then-command", "and-newline", "and-continued",
        "left-of-or", "left-of-pipe", "left-of-and"])
def test_removal_keeps_the_neighbours_in_place(line):
    from fuzz_props import error_spans, moved_commands
    text = ("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n" + line +
            "\ntorchrun aiak_training_llm/train.py --micro-batch-size 1\n")
    analysis = analyze(text, settings=EN)
    assert "PG002" in [f.code for f in analysis.findings]
    edits = analysis.fix_all_edits(unsafe=True)
    fixed = apply_edits(analysis.source.data, edits)
    assert error_spans(fixed) == [], fixed.decode()
    assert moved_commands(analysis.source.data, edits) == [], fixed.decode()


@pytest.mark.parametrize("line,expected", [
    ('test -n "$L" && export OFFLINE_PACKING_VQA=1', 'test -n "$L" && :'),
    ("echo x | export OFFLINE_PACKING_VQA=1", "echo x | :"),
    ("export OFFLINE_PACKING_VQA=1 &", ": &"),
    ("export OFFLINE_PACKING_VQA=1 || echo failed", ": || echo failed"),
    ("export OFFLINE_PACKING_VQA=1 && echo set", ": && echo set"),
])
def test_removal_next_to_an_operator_reads(line, expected):
    text = "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n" + line + "\ntorchrun aiak_training_llm/train.py\n"
    analysis = analyze(text, settings=EN)
    fixed = apply_edits(analysis.source.data, analysis.fix_all_edits(unsafe=True)).decode()
    assert fixed.splitlines()[1] == expected
