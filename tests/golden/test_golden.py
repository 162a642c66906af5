"""Golden fixtures: one small launcher per bash construct and real-script idiom (FACTS.md §5-§7).

Each `cases/NAME.sh` has a `cases/NAME.expected` holding the exact output of

    packgate check --format text --lang en --color never NAME.sh

run from inside `cases/` (so paths print as `NAME.sh`), and, where the run writes warnings that
are not findings to standard error (CRLF line ends), a `cases/NAME.stderr` holding them. The `.expected` files encode what
FACTS.md says is true, not what the engine happens to print: they were generated, then
reviewed one by one and corrected by hand where the engine is wrong.

Regenerate after a deliberate change of messages or positions with

    PACKGATE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden -k NAME

(`-k` limits the rewrite to the cases you mean; without it every case is rewritten), then
review the diff (`git diff tests/golden/cases`) case by case against FACTS.md before
committing: never regenerate a case listed in KNOWN_ENGINE_BUGS without fixing the engine
first, or the truth it encodes is overwritten with the bug. Update mode skips those cases.

Two more tests apply every safe fix (`packgate check --fix` on a temporary copy): the result
must still pass `bash -n` (skipped when bash is not installed), and the fixes must converge
(a second `packgate check --diff` on the fixed copy proposes nothing: a safe fix that does not
remove its finding gets applied again and again).

KNOWN_ENGINE_BUGS lists the tests the engine does not pass yet: key `NAME` for the golden
output of case NAME, `NAME/bash-n` and `NAME/converge` for its two fix tests. They run as
strict xfails so the suite stays green. Remove an entry when the engine is fixed (a strict
xfail that passes fails the suite, as a reminder).

`cases/env/` holds files that cases `source`; `cases/.packgate.toml` is empty on purpose, so
the cases run with the default settings whatever configuration the repository gains.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from packgate.cli.main import main

CASES = Path(__file__).parent / "cases"
ENV_DIR = CASES / "env"  # files the cases source; not cases themselves
UPDATE = os.environ.get("PACKGATE_UPDATE_GOLDEN") == "1"
CHECK_ARGS = ["check", "--format", "text", "--lang", "en", "--color", "never"]

# test key -> why the engine does not produce the truth yet. Temporary: remove entries as the
# engine gets fixed.
KNOWN_ENGINE_BUGS: dict[str, str] = {
}


def _case_names() -> list[str]:
    return sorted(p.stem for p in CASES.glob("*.sh"))


def _params(names, suffix: str = ""):
    out = []
    for n in names:
        reason = KNOWN_ENGINE_BUGS.get(n + suffix)
        out.append(pytest.param(n, id=n, marks=pytest.mark.xfail(strict=True, reason=reason))
                   if reason else n)
    return out


def run_check(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """packgate.cli.main in-process from cwd: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()


def test_every_case_has_expected_output():
    """No orphan scripts or orphan .expected files."""
    scripts = set(_case_names())
    expected = {p.stem for p in CASES.glob("*.expected")}
    assert scripts, "no golden cases found"
    if not UPDATE:
        assert scripts - expected == set(), "cases without .expected (run with PACKGATE_UPDATE_GOLDEN=1)"
    assert expected - scripts == set(), ".expected files without a case"
    assert {p.stem for p in CASES.glob("*.stderr")} - scripts == set(), ".stderr files without a case"
    unknown = {k for k in KNOWN_ENGINE_BUGS if k.split("/")[0] not in scripts
               or k.partition("/")[2] not in ("", "bash-n", "converge")}
    assert unknown == set(), "KNOWN_ENGINE_BUGS names a case that does not exist"


@pytest.mark.parametrize("name", _params(_case_names()))
def test_golden(name: str):
    """The text output for the case matches its reviewed .expected file."""
    code, out, err = run_check([*CHECK_ARGS, f"{name}.sh"], CASES)
    expected_path = CASES / f"{name}.expected"
    stderr_path = CASES / f"{name}.stderr"  # the warnings that are not findings (CRLF), if any
    if UPDATE and name not in KNOWN_ENGINE_BUGS:
        expected_path.write_text(out, encoding="utf-8", newline="")
        if err:
            stderr_path.write_text(err, encoding="utf-8", newline="")
        elif stderr_path.exists():
            stderr_path.unlink()
    expected = expected_path.read_text(encoding="utf-8")
    expected_err = stderr_path.read_text(encoding="utf-8") if stderr_path.exists() else ""
    assert err == expected_err, f"unexpected stderr: {err}"
    assert out == expected
    # findings fail the run from the default --fail-level, warning, up (information never does)
    failing = any(f": {level}: " in line for line in expected.splitlines() for level in ("error", "warning"))
    assert code == (1 if failing else 0), f"exit code {code}"


def _fixed_copy(name: str, tmp_path: Path) -> Path:
    """A copy of the case with `packgate check --fix --unsafe-fixes` applied: the cases run with
    the profile `auto` assumes (ov2), under which the gate fixes are unsafe, and these tests are
    about what every fix does to the script."""
    copy = tmp_path / f"{name}.sh"
    shutil.copyfile(CASES / copy.name, copy)
    shutil.copytree(ENV_DIR, tmp_path / ENV_DIR.name)  # so sourced files resolve as in cases/
    shutil.copyfile(CASES / ".packgate.toml", tmp_path / ".packgate.toml")
    code, _, err = run_check(["check", "--fix", "--unsafe-fixes", "--color", "never", copy.name], tmp_path)
    assert code in (0, 1), f"packgate --fix failed ({code}): {err}"
    return copy


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("name", _params(_case_names(), "/bash-n"))
def test_safe_fixes_keep_valid_bash(name: str, tmp_path: Path):
    """`packgate check --fix` on a copy leaves a file that `bash -n` accepts."""
    original = CASES / f"{name}.sh"
    assert _bash_n(original) == "", f"the case itself is not valid bash: {_bash_n(original)}"
    copy = _fixed_copy(name, tmp_path)
    problems = _bash_n(copy)
    assert problems == "", (f"after --fix, bash -n fails:\n{problems}\n--- fixed file ---\n"
                            f"{copy.read_text(encoding='utf-8', errors='replace')}")


@pytest.mark.parametrize("name", _params(_case_names(), "/converge"))
def test_safe_fixes_converge(name: str, tmp_path: Path):
    """After `--fix`, no safe fix is left to apply: each fix removed the finding it was for."""
    copy = _fixed_copy(name, tmp_path)
    _, diff, _ = run_check(["check", "--diff", "--unsafe-fixes", copy.name], tmp_path)
    assert diff == "", (f"--fix did not converge; still proposed:\n{diff}\n--- fixed file ---\n"
                        f"{copy.read_text(encoding='utf-8', errors='replace')}")


def _bash_n(path: Path) -> str:
    proc = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, timeout=30)
    return "" if proc.returncode == 0 else (proc.stderr or f"exit {proc.returncode}")
