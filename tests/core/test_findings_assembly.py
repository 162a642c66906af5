"""The findings' assembly in core/engine.py: its index of statements answers as a plain scan does."""

from pathlib import Path

from packgate.core.engine import _innermost_statement
from packgate.core.parse import parse_bytes

ROOT = Path(__file__).resolve().parents[2]


def _scan(statements, offset: int) -> int:
    """The latest start of a statement holding offset (an empty one only at its own offset)."""
    holding = [s for s, e in statements if s <= offset < e or s == offset == e]
    return max(holding, default=offset)


def test_the_innermost_statement_is_the_one_a_scan_finds():
    scripts = sorted((ROOT / "examples").glob("*.sh")) + sorted((ROOT / "benchmarks" / "inputs").glob("*.sh"))
    assert scripts
    for path in scripts:
        data = path.read_bytes()
        script = parse_bytes(data)
        statements = list(script.statements)
        for offset in range(len(data) + 1):
            assert _innermost_statement(script, offset) == _scan(statements, offset), (path, offset)
        assert script.statements == statements  # the index leaves the model's list as it is
