"""Which scripts the oracle runs, with which inputs, and which files they may source."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .bashside import Input

TESTS = Path(__file__).resolve().parents[2]
ROOT = TESTS.parent
GOLDEN = TESTS / "golden" / "cases"
EXAMPLES = ROOT / "examples"
OWN = TESTS / "oracle" / "cases"

_INPUT = re.compile(r"^#\s*oracle-input:(.*)$", re.M)
_PARTIAL = re.compile(r"^#\s*oracle-partial:(.*)$", re.M)

# Inputs for the golden cases and examples that take more than one path (each case's own
# comments say which variables and arguments select them). A case not listed runs once with
# no input. `partial` names why the inputs cannot take every path (so only what bash did is
# checked, not that every path packgate states is taken).
GOLDEN_INPUTS: dict = {
    "and_or": ["", "DATA_PATH=d +d/.packed"],
    "case_stage": ["", "DATA_FORMAT=packed-legacy", "DATA_FORMAT=raw"],
    "disable_if_block": ["", "LEGACY_RECIPE=1"],
    "docker_env_file": ["", "+packing.env"],
    "exit_guards_and_branch": ["X=1", "X=1 STAGE=2", ""],
    "export_self_default": ["", "OFFLINE_PACKING_BMR=0"],
    "if_elif_else": ["", "-- 1", "-- 3"],
    "mbs_default_one": ["", "-- d c 2 4"],
    "mbs_default_two": ["", "-- a b c 1"],
    "mbs_positional_unknown": ["", "-- a b c 1"],
    "nested_defaults": ["", "MICRO_BATCH_SIZE=1", "-- a b c 1"],
    "or_fallback": ["", "-- pretrain"],
    "or_keep_caller_value": ["", "OFFLINE_PACKED_DATA=0"],
    "param_assign_default": ["", "OFFLINE_PACKED_DATA=0"],
    "param_assign_default_unexported": ["", "OFFLINE_PACKED_DATA=1"],
    "param_default": ["", "OFFLINE_PACKED_DATA=1"],
    "quoted_default": ["", "MBS=1"],
    "test_or_exit": ["", "+d/ -- d"],
}
GOLDEN_PARTIAL: dict = {
    "launch_background_wait": "the log folder /mnt/logs is outside the scratch folder: the "
                              "redirection fails and bash never starts the launch",
    "launch_bash_c": "cd /workspace/LLaVA-OneVision-2 fails outside a container: bash never "
                     "starts the launch",
    "exit_guards_and_branch": "need_dir checks /data/a and /data/b, outside the scratch folder",
}
EXAMPLE_INPUTS: dict = {
    "stage_switch": ["", "-- stage2", "-- stage3"],
    "stage1_5_packed_correct": ["", "-- a b c 2"],
    "stage1_mbs4": ["", "-- a b c 1"],
    "stage2_bmr_only_leak": ["", "-- a b c 2"],
    "stage2_packed_data_only": ["", "TORCHRUN=torchrun"],
}


@dataclass(frozen=True)
class Case:
    """A script, the inputs it runs with, the files it may source, whether inputs cover it."""

    key: str  # golden/NAME, example/NAME, oracle/NAME
    script: Path
    inputs: tuple
    extra: tuple  # (source path, path relative to the scratch folder)
    partial: str = ""  # why the inputs do not take every path ("" when they do)


def _inputs(texts) -> tuple:
    return tuple(Input.parse(t) for t in texts) or (Input(),)


def golden_cases() -> list:
    """Every golden case, with the env/ folder and the empty config beside it."""
    extra = ((GOLDEN / "env", "env"), (GOLDEN / ".packgate.toml", ".packgate.toml"))
    return [Case(f"golden/{p.stem}", p, _inputs(GOLDEN_INPUTS.get(p.stem, [""])), extra,
                 GOLDEN_PARTIAL.get(p.stem, ""))
            for p in sorted(GOLDEN.glob("*.sh"))]


def example_cases() -> list:
    """Every example launcher."""
    return [Case(f"example/{p.stem}", p, _inputs(EXAMPLE_INPUTS.get(p.stem, [""])), ())
            for p in sorted(EXAMPLES.glob("*.sh"))]


def own_cases() -> list:
    """The oracle's own cases: inputs and `partial` from `# oracle-input:` / `# oracle-partial:`
    comments; a NAME.d/ folder beside NAME.sh is copied into the scratch folder."""
    out = []
    for p in sorted(OWN.glob("*.sh")):
        text = p.read_text(encoding="utf-8")
        folder = p.with_suffix(".d")
        extra = ((folder, "."),) if folder.is_dir() else ()
        partial = _PARTIAL.search(text)
        out.append(Case(f"oracle/{p.stem}", p, _inputs(m.group(1).strip() for m in _INPUT.finditer(text)),
                        extra, partial.group(1).strip() if partial else ""))
    return out


def all_cases() -> list:
    """Golden cases, examples and the oracle's own cases."""
    return golden_cases() + example_cases() + own_cases()
