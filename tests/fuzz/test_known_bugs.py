"""Minimal reproducers of the bugs the fuzzers found in the core, as strict xfails.

Each stays red-but-expected until the engine is fixed; a strict xfail that starts passing fails
the suite, as a reminder to remove the marker (and the matching tolerance in fuzz_props.py).
"""

from __future__ import annotations

import pytest

from fuzz_props import EN
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
