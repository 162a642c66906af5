"""The bash runs of every oracle case, made once per session and shared by the comparisons
that read them (test_oracle.py: the gates and findings; test_oracle_launches.py: `packgate launches`)."""

from __future__ import annotations

import pytest

from oracle_harness.cases import all_cases
from oracle_harness.runner import Prefetch


@pytest.fixture(scope="session")
def prefetch(tmp_path_factory):
    """Every case's bash runs (and the gate comparison), started in a few threads at the first request."""
    p = Prefetch(all_cases(), tmp_path_factory.mktemp("oracle"))
    yield p
    p.close()
