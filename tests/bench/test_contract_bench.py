"""benchmarks/contract_index.py writes the workspace the issue describes, and the index reads it
the same whether a file is parsed whole or piece by piece."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "benchmarks")]

import contract_index as bench  # noqa: E402

from packgate.core.code import index as ci  # noqa: E402
from packgate.core.code import reading  # noqa: E402
from packgate.core.code.envreads import env_reads  # noqa: E402


def test_the_synthetic_workspace_and_pieces_equal_whole(tmp_path):
    tmp_path = tmp_path / "workspace"  # `make bench` names a folder that does not exist yet
    bench.write_workspace(tmp_path)
    files = sorted(tmp_path.rglob("*.py"))
    relevant = [p for p in files if any(reading.wanted(p.read_bytes()))]
    assert 180 <= len(relevant) <= 200 and len(files) > 900
    for path in relevant[::6]:
        data = path.read_bytes()
        whole = env_reads(reading.parse(data, whole=True), "f.py")
        pieces = reading.parse(data, whole=False)
        if reading.wanted(data) == (True, False):
            assert not pieces.whole, path.name  # the piece-by-piece path is the one measured
        assert env_reads(pieces, "f.py") == whole, path.name
    ci.invalidate()
    index = ci.contract_index(str(tmp_path))
    got = index.options_for("aiak_training_llm/train.py")
    assert got.how is ci.How.IMPORTED and len(got.options) > 1000 and got.allow_abbrev is False
    assert len(index.names_read()) > 250
    ci.invalidate()
