"""Minimal reproducers of the bugs the fuzzers found in the core, as strict xfails.

Each stays red-but-expected until the engine is fixed; a strict xfail that starts passing fails
the suite, as a reminder to remove the marker (and the matching tolerance in fuzz_props.py).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from fuzz_props import EN
from rawlsp import server_env as cli_env
from packgate.core.engine import analyze
from packgate.core.source import apply_edits


def _disable_for_command(text: str, code: str) -> str:
    analysis = analyze(text, settings=EN)
    finding = next(f for f in analysis.findings if f.code == code)
    fix = next(x for x in finding.fixes if x.kind == "disable" and "command" in x.description)
    return apply_edits(analysis.source.data, fix.edits).decode("utf-8")


@pytest.mark.xfail(strict=True, reason="bug: 'Disable PGxxx for this command' inserts the comment above "
                   "the line, which covers only the first command of `a; b` / `a & b`, so a finding "
                   "on the second command stays")
@pytest.mark.parametrize("sep", ["; ", " & ", " && "])
def test_disable_for_this_command_second_on_its_line(sep):
    text = f"true\necho hi{sep}export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
    assert [f.code for f in analyze(text, settings=EN).findings] == ["PG001"]
    fixed = _disable_for_command(text, "PG001")
    assert [f.code for f in analyze(fixed, settings=EN).findings] == []


def test_disable_for_this_command_first_on_its_line():
    """The working neighbour of the bug above: the same line with the finding first."""
    text = "true\nexport OFFLINE_PACKING_BMR=1; echo hi\ntorchrun train.py --micro-batch-size 1\n"
    fixed = _disable_for_command(text, "PG001")
    assert [f.code for f in analyze(fixed, settings=EN).findings] == []


@pytest.mark.xfail(strict=True, reason="bug: PG004's safe fix puts `export` before a statement of several "
                   "assignments (`X=1 FOO=2`), so it exports FOO as well, a variable the finding is not about")
def test_pg004_fix_exports_only_its_gate():
    text = "OFFLINE_PACKING_BMR=1 FOO=2\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py --micro-batch-size 1\n"
    analysis = analyze(text, settings=EN)
    finding = next(f for f in analysis.findings if f.code == "PG004")
    fix = next(x for x in finding.fixes if x.kind == "fix")
    fixed = apply_edits(analysis.source.data, fix.edits).decode("utf-8")
    assert "export FOO" not in fixed and not fixed.startswith("export OFFLINE_PACKING_BMR=1 FOO=2"), fixed


@pytest.mark.xfail(strict=True, reason="bug: a NUL byte in the path of `.`/`source` makes analyze() raise "
                   "ValueError('embedded null byte') from os.path.realpath when a path is given")
def test_nul_in_a_sourced_path(tmp_path):
    analyze(". ./a\0b\n", path=str(tmp_path / "train.sh"), settings=EN)


@pytest.mark.xfail(strict=True, reason="bug: `packgate check` on a file with a NUL in a sourced path past "
                   "the first 8 KiB (the binary sniff) dies with a traceback and exit code 1, the code "
                   "of 'findings'")
def test_cli_nul_in_a_sourced_path_after_8k(tmp_path):
    script = tmp_path / "train.sh"
    script.write_bytes(b"#" * 9000 + b"\n. ./a\0b\n")
    out = subprocess.run([sys.executable, "-m", "packgate", "check", str(script)], capture_output=True,
                         timeout=60, env=cli_env())
    assert b"Traceback" not in out.stderr, out.stderr.decode(errors="replace")[-600:]
    assert out.returncode == 2  # the file cannot be analysed (or: 0/1 with the NUL read as data)


CRASH_RUNS = 16


@pytest.mark.xfail(strict=True, reason="bug: tree-sitter-bash 0.25.1's scanner calls isdigit() on the code "
                   "point after `{` (scanner.c:1158); `echo {<U+F0001>}` (a Nerd Font icon) reads outside "
                   "the ctype table and kills `packgate check` and `packgate lsp` with SIGSEGV in about "
                   "two runs of three")
def test_brace_then_astral_character_does_not_crash(tmp_path):
    script = tmp_path / "icons.sh"
    script.write_text("echo {\U000F0001}\n", encoding="utf-8")
    # The crash depends on where ASLR put libc: several processes at once make it certain.
    procs = [subprocess.Popen([sys.executable, "-m", "packgate", "check", str(script)], env=cli_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(CRASH_RUNS)]
    codes = [p.wait(60) for p in procs]
    assert all(code in (0, 1) for code in codes), codes
