"""Issue 28's acceptance on a workspace in the shape of LLaVA-OneVision-2 `main` (ov2_shape.py),
with default settings: both `--image-resolution` launchers flagged, the 17 double
PYTORCH_CUDA_ALLOC_CONF exports flagged, the 11 packing findings unchanged, and no finding on a
variable or option the code reads or defines."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ov2_shape  # noqa: E402

PACKING = {"PG001", "PG002", "PG003", "PG004", "PG005", "PG006", "PG007"}
# (code, launcher, line) of every packing finding: what packgate reported before the launch contract
PACKING_FINDINGS = {
    ("PG001", "stage_2/sft_bmr_only.sh", 9),
    ("PG003", "stage_2/sft_mbs2.sh", 16),
    ("PG004", "stage_2/sft_not_exported.sh", 9),
    ("PG001", "stage_2/sft_packed_only.sh", 9),
    ("PG005", "stage_2/sft_true.sh", 9),
    ("PG002", "stage_2/sft_vqa.sh", 9),
    ("PG001", "stage_2/sft_vqa.sh", 10),
    ("PG006", "stage_3/rl_background.sh", 9),
    ("PG001", "stage_3/rl_bmr_mbs4.sh", 9),
    ("PG001", "stage_3/rl_packed_only_mbs4.sh", 9),
    ("PG003", "stage_3/rl_packed_only_mbs4.sh", 15),
}


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    root = ov2_shape.build(tmp_path_factory.mktemp("ov2") / "ws")
    out = subprocess.run([sys.executable, "-m", "packgate", "check", "--format", "json", str(root / "examples")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    assert not report.get("problems"), report.get("problems")
    for f in report["diagnostics"]:
        f["rel"] = Path(f["path"]).resolve().relative_to((root / "examples").resolve()).as_posix()
    return report["diagnostics"]


def test_the_packing_findings_are_unchanged(findings):
    assert {(f["code"], f["rel"], f["line"]) for f in findings if f["code"] in PACKING} == PACKING_FINDINGS
    assert len([f for f in findings if f["code"] in PACKING]) == 11


def test_both_image_resolution_launchers_are_flagged(findings):
    unknown = [f for f in findings if f["code"] == "PG010"]
    assert sorted((f["rel"], f["line"]) for f in unknown) == [
        ("quick_start/stage_2_instruct_2b.sh", 20), ("quick_start/stage_2_instruct_4b.sh", 20)]
    for f in unknown:
        assert "--image-resolution" in f["message"] and f["severity"] == "error"


def test_the_seventeen_double_alloc_exports_are_flagged(findings):
    overridden = [f for f in findings if f["code"] == "PG008" and "PYTORCH_CUDA_ALLOC_CONF" in f["message"]]
    assert len(overridden) == 17
    assert len({f["rel"] for f in overridden}) == 17
    assert ov2_shape.JOINED not in {f["rel"] for f in overridden}


def test_nothing_the_code_reads_or_defines_is_flagged(findings):
    contract = Counter((f["code"], f["rel"]) for f in findings
                       if f["code"] not in PACKING and not (f["code"] == "PG008" and "PYTORCH_CUDA_ALLOC_CONF" in f["message"]))
    # the one true contract finding besides PG010: ENABLE_SWANLAB=true is off for `== "1"`
    assert contract == Counter({("PG010", "quick_start/stage_2_instruct_2b.sh"): 1,
                                ("PG010", "quick_start/stage_2_instruct_4b.sh"): 1,
                                ("PG013", "quick_start/stage_1_alignment.sh"): 1})
