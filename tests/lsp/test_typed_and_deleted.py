"""A character typed and deleted again composes to no edit at all: a launch path the walk took
over with moves still pending must take that in stride (the server stopped publishing on it)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import lsp_bench as lb  # noqa: E402
from generate import generate  # noqa: E402

from packgate.core.engine import analyze  # noqa: E402
from packgate.lsp.session import Session  # noqa: E402


def _keys(findings) -> list:
    return [(f.code, f.start, f.end, f.message) for f in findings]


def test_typing_and_deleting_keeps_the_findings_of_a_fresh_analysis():
    text = generate(2000, 7)
    session, uri = Session(), "file:///packgate-test/typed.sh"
    session.analysis(uri, 0, text)
    version = 0
    for spot in lb.keystroke_spots(text, 75)[:4]:
        for rng, new, after in lb.spot_edits(text, spot):
            version += 1
            source = session.source(uri, text)
            start = source.offset(rng.start.line, rng.start.character, "utf-16")
            end = source.offset(rng.end.line, rng.end.character, "utf-16")
            text = session.splice(uri, source, start, end, new)
            assert text == after
            entry, _ = session.analysis(uri, version, text, full=False)
            assert _keys(entry.analysis.findings) == _keys(analyze(text, settings=entry.analysis.settings).findings)
