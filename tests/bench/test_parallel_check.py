"""`packgate check` over many files gives the same output and exit code with and without workers."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from generate import write_many  # noqa: E402

from packgate.cli.check import POOL_MIN_FILES  # noqa: E402


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("many")
    write_many(root, POOL_MIN_FILES + 4, 160, seed=3)
    (root / "env.sh").write_text("export OFFLINE_PACKING_BMR=1\n", encoding="utf-8")
    (root / "sourcing.sh").write_text("#!/bin/bash\nsource ./env.sh\ntorchrun train.py\n", encoding="utf-8")
    (root / "binary.sh").write_bytes(b"#!/bin/bash\n\0\0\0")
    (root / "latin1.sh").write_bytes("#!/bin/bash\n# caf\xe9\nexport OFFLINE_PACKED_DATA=1\n".encode("latin-1"))
    return root


def check(folder: Path, jobs: str, fmt: str) -> tuple[int, str, str]:
    env = dict(os.environ, PACKGATE_JOBS=jobs)
    out = subprocess.run([sys.executable, "-m", "packgate", "check", str(folder), "--format", fmt],
                         capture_output=True, text=True, env=env, cwd=folder)
    return out.returncode, out.stdout, out.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_workers_change_nothing(folder, fmt):
    one = check(folder, "1", fmt)
    two = check(folder, "2", fmt)
    assert one[0] == 1  # the binary file is skipped (reported, not an error); the others have findings
    assert two == one
