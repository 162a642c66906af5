"""Bash is the oracle for `packgate launches` too: over every input of every oracle case, each
launch bash started got an argv and an environment that one path of packgate's view allows
(oracle_harness/launchside.py says exactly what is accepted)."""

from __future__ import annotations

import shutil

import pytest

from oracle_harness.cases import all_cases
from oracle_harness.known import KNOWN_LAUNCH_VIEW
from oracle_harness.launchside import check_view

pytestmark = pytest.mark.skipif(shutil.which("bash") is None,
                                reason="bash is not installed: the oracle has nothing to run")

CASES = {c.key: c for c in all_cases()}


def _params():
    out = []
    for key in CASES:
        reason = KNOWN_LAUNCH_VIEW.get(key)
        marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason else []
        out.append(pytest.param(key, id=key, marks=marks))
    return out


def test_known_view_entries_name_cases():
    """Every known disagreement of the launch view names a case that exists."""
    assert set(KNOWN_LAUNCH_VIEW) - set(CASES) == set()


@pytest.mark.parametrize("key", _params())
def test_bash_agrees_with_the_launch_view(key: str, prefetch, tmp_path):
    """Each launch bash started got what one of packgate's paths to it allows."""
    runs, _ = prefetch.result(key)
    disagreements = check_view(CASES[key], runs, tmp_path / "packgate")
    assert disagreements == [], "\n".join(map(str, disagreements))
