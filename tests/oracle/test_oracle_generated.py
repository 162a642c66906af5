"""Bash is the oracle, on launchers nobody wrote: random scripts of the ways launchers set the gates
and the micro-batch size (oracle_harness/generated.py) run under bash with each input, and every
launch bash made must be one packgate's paths admit, with the findings bash's values call for.
A path of packgate's that no input took is not counted here, nor a PG007 (the gates differ by
path) where the inputs bash ran all gave one combination: the inputs are not chosen per script,
and a test on a variable the script set stays unknown to packgate by design (oracle_harness/known.py). 24 scripts in `make test`, 400 with PACKGATE_FUZZ_LONG=1 (`make fuzz`)."""

from __future__ import annotations

import os
import shutil

import pytest

from oracle_harness.bashside import Input
from oracle_harness.cases import Case
from oracle_harness.generated import INPUTS, launcher
from oracle_harness.runner import check_case

pytestmark = pytest.mark.skipif(shutil.which("bash") is None,
                                reason="bash is not installed: the oracle has nothing to run")

COUNT = 400 if os.environ.get("PACKGATE_FUZZ_LONG") == "1" else 24


@pytest.mark.parametrize("seed", range(COUNT))
def test_bash_agrees_on_a_random_launcher(seed, tmp_path):
    text = launcher(seed)
    script = tmp_path / f"generated_{seed}.sh"
    script.write_text(text, encoding="utf-8")
    case = Case(f"generated/{seed}", script, tuple(Input.parse(i) for i in INPUTS), ())
    _, disagreements = check_case(case, tmp_path / "runs")
    wrong = [d for d in disagreements
             if d.kind != "untaken" and not (d.kind == "finding" and d.detail.startswith("packgate reports PG007"))]
    assert wrong == [], text + "\n" + "\n".join(map(str, wrong))
