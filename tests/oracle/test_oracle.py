"""Bash is the oracle: every golden case, example and oracle case runs under real bash with
recording stubs, once per input, and what each launch received must be what packgate says that
launch can see (see README.md in this folder)."""

from __future__ import annotations

import shutil

import pytest

from oracle_harness.known import KNOWN
from oracle_harness.cases import all_cases

pytestmark = pytest.mark.skipif(shutil.which("bash") is None,
                                reason="bash is not installed: the oracle has nothing to run")

CASES = all_cases()


def _params():
    out = []
    for c in CASES:
        reason = KNOWN.get(c.key)
        # only a disagreement (an AssertionError) counts; a harness crash still fails
        marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason else []
        out.append(pytest.param(c.key, id=c.key, marks=marks))
    return out


def test_known_entries_name_cases():
    """Every known disagreement names a case that exists."""
    assert set(KNOWN) - {c.key for c in CASES} == set()


def test_enough_cases():
    """The oracle's own cases cover the constructs of issue 16 (at least 60 of them)."""
    assert sum(c.key.startswith("oracle/") for c in CASES) >= 60


@pytest.mark.parametrize("key", _params())
def test_bash_agrees(key: str, prefetch):
    """What bash handed each launch, over every input, is what packgate says it can see."""
    runs, disagreements = prefetch.result(key)
    assert disagreements == [], "\n".join(map(str, disagreements))
