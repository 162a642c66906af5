"""A long editing session against the real server: its memory must stop growing after warm-up.

`make fuzz` (PACKGATE_FUZZ_LONG=1) types 6,000 edits back to back into the 250-line launcher
of benchmarks/inputs (an `x` at the end of a random line, then deleted, each awaited to its
publishDiagnostics, a hover every 25 edits), as `make bench` does, and asserts that the
server's resident memory grew by at most 3 MiB from edit 400 to edit 6,000. A leak of a
kilobyte per edit (a log that only grows, a cache keyed by statement, garbage that is never
collected while the client is busy) fails it. Linux only: the resident size comes from /proc.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from fuzz_corpus import LONG

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
EDITS = 6000
WARM = 400
BOUND_MIB = 3.0

pytestmark = [
    pytest.mark.skipif(not LONG, reason="the long session runs under `make fuzz` (PACKGATE_FUZZ_LONG=1)"),
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's RSS from /proc"),
]


@pytest.mark.timeout(600)
def test_memory_is_flat_over_a_long_session():
    sys.path.insert(0, str(BENCH))
    import lsp_bench

    text = (BENCH / "inputs" / "ov2_stage2_launcher.sh").read_text(encoding="utf-8")
    marks = [WARM, EDITS // 2, EDITS]
    rss = asyncio.run(lsp_bench.long_session(text, EDITS, marks))
    assert all(rss[n] > 0 for n in marks), rss
    grown = rss[EDITS] - rss[WARM]
    assert grown <= BOUND_MIB, f"RSS grew {grown:.1f} MiB from edit {WARM} to edit {EDITS}: {rss}"
