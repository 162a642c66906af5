"""The benchmark generator writes valid bash of exactly the requested size, the same for a seed."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from generate import MIN_LINES, generate, line_count, write_many  # noqa: E402

BASH = shutil.which("bash")


@pytest.mark.parametrize("lines", [MIN_LINES, 220, 300, 2000, 100_000])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_exact_size_and_valid_bash(lines, seed, tmp_path):
    text = generate(lines, seed)
    assert line_count(text) == lines
    if lines > 2000 and seed:  # bash -n on the largest size once is enough
        return
    if BASH is None:
        pytest.skip("bash not installed")
    script = tmp_path / "launcher.sh"
    script.write_text(text, encoding="utf-8")
    result = subprocess.run([BASH, "-n", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_deterministic_by_seed():
    assert generate(2000, 3) == generate(2000, 3)
    assert generate(2000, 3) != generate(2000, 4)


def test_launcher_idioms_are_present():
    text = generate(2000, 5)
    for idiom in ('MBS="${4:-1}"', "PYTHONPATH=", "torchrun \\", '| tee "${logfile}"', "${IMG_ARGS:+${IMG_ARGS[@]}}",
                  "# --micro-batch-size", "<<<", "case ", "() {", "训练", "set -euo pipefail"):
        assert idiom in text, idiom


def test_too_small_is_refused():
    with pytest.raises(ValueError):
        generate(MIN_LINES - 1)


def test_write_many(tmp_path):
    paths = write_many(tmp_path, 5, 220, seed=10)
    assert [p.name for p in paths] == [f"launcher_{i:04d}.sh" for i in range(5)]
    for p in paths:
        assert 198 <= line_count(p.read_text(encoding="utf-8")) <= 242
