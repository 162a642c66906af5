"""The checks' shortcuts give the findings of the long way: path verdicts judged once per launch
and shared by PG001 and PG007, and PG003 wording nothing for a path that is fine."""

import sys
from pathlib import Path

from packgate.core.engine import analyze
from packgate.core.rules import packing, pg001_missing_companion, pg007_path_dependent
from packgate.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import generate  # noqa: E402


def _scripts() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.sh"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "golden").rglob("*.sh"))]
    return texts + [generate(400, seed) for seed in range(4)]


def _judged_each_time(ctx, launch) -> list:
    return [packing.path_verdict(ctx, p) for p in launch.paths]


def test_shared_verdicts_give_the_findings_of_verdicts_judged_each_time(monkeypatch):
    texts = _scripts()
    settings = Settings(lang="both")
    fast = [analyze(t, settings=settings).findings for t in texts]
    monkeypatch.setattr(pg001_missing_companion, "launch_verdicts", _judged_each_time)
    monkeypatch.setattr(pg007_path_dependent, "launch_verdicts", _judged_each_time)
    slow = [analyze(t, settings=settings).findings for t in texts]
    assert fast == slow
    codes = {f.code for findings in fast for f in findings}
    assert {"PG001", "PG003", "PG007"} <= codes
