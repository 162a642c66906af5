"""The contract's relations (issue 28): the typed table, the packing entries PG001/PG003 own, and
PG014 on each Megatron relation, broken and kept, in launchers written here over a copy of the
training tree of tests/fixtures/repo_contract."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from packgate import Settings, analyze
from packgate.core import gates as G
from packgate.core.code.index import invalidate
from packgate.core.code.relations import Absent, Compare, Relation, RelationKind, Subject, Clause
from packgate.core.rules.launch_relations import Outcome, Words, judge
from packgate.core.text import apply_edits

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "repo_contract"
EN = Settings(lang="en")
LAUNCH = "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"


@pytest.fixture
def tree(tmp_path):
    """A copy of the fixture's training tree (a project root: it holds pyproject.toml)."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    invalidate()
    yield root
    invalidate()


def contract(root: Path, text: str, name: str = "run.sh", settings: Settings = EN) -> list:
    script = root / "examples" / name
    script.write_text(text, encoding="utf-8")
    return [f for f in analyze(text, path=str(script), settings=settings).findings if f.code == "PG014"]


def only(findings: list, relation: str):
    found = [f for f in findings if f" {relation}:" in f.message]
    assert len(found) == 1, [f.message for f in findings]
    return found[0]


# ---------------------------------------------------------------- the table

def test_the_packing_gates_and_the_micro_batch_size_are_entries_of_every_profile():
    for profile in G.PROFILES.values():
        owned = {r.name: r for r in profile.relations if r.owner != "PG014"}
        assert set(owned) == {"packing-gates", "packing-micro-batch", "pretrain-micro-batch"}
        gates = owned["packing-gates"]
        assert gates.kind is RelationKind.BOTH and gates.owner == "PG001"
        encoding, batch = gates.clauses
        assert set(encoding.names) == set(profile.encoding) and batch.names == (profile.batch,)
        assert {t.compare for t in gates.clauses} == {Compare.INT} and {t.absent for t in gates.clauses} == {Absent.UNSET}
        for name in ("packing-micro-batch", "pretrain-micro-batch"):
            entry = owned[name]
            assert entry.owner == "PG003" and entry.then == Clause(Subject.OPTION, (G.MBS_FLAG,), "1")
        assert owned["packing-micro-batch"].clauses[0].names == (profile.batch,)
    megatron = {r.name for r in G.MEGATRON_RELATIONS}
    assert {r.name for r in G.PROFILES["ov2"].relations if r.owner == "PG014"} == megatron
    assert not [r for r in G.PROFILES["ov15"].relations if r.owner == "PG014"]
    assert all(r.at and r.reason_en and r.reason_zh for p in G.PROFILES.values() for r in p.relations)


def test_the_values_are_compared_as_the_code_compares_them():
    as_text = Clause(Subject.VAR, ("CUDA_DEVICE_MAX_CONNECTIONS",), "1")
    assert as_text.judge("1") is True and as_text.judge("01") is False and as_text.judge(None) is False
    as_int = Clause(Subject.VAR, ("NVTE_FLASH_ATTN",), "1", compare=Compare.INT, default="1")
    assert as_int.judge("01") is True and as_int.judge(" 1") is True and as_int.judge(None) is True
    assert as_int.judge("true") is None  # int() raises: the value rules' finding, not a broken relation
    negated = Clause(Subject.VAR, ("CUDA_DEVICE_MAX_CONNECTIONS",), "1", equal=False, default="")
    assert negated.judge("1") is False and negated.judge("8") is True and negated.judge(None) is True


def test_a_relation_reads_in_both_languages():
    fsdp = next(r for r in G.MEGATRON_RELATIONS if r.name == "fsdp-connections")
    assert fsdp.describe() == "CUDA_DEVICE_MAX_CONNECTIONS must not be 1 when --use-torch-fsdp2 is given"
    assert fsdp.describe("zh") == "当传了 --use-torch-fsdp2 时，CUDA_DEVICE_MAX_CONNECTIONS 不能为 1"
    assert fsdp.variables() == ("CUDA_DEVICE_MAX_CONNECTIONS",)


def test_relations_travel_to_worker_processes():
    profile = G.PROFILES["ov2"]
    assert pickle.loads(pickle.dumps(profile)) == profile


# ---------------------------------------------------------------- reading a launch's words

def _vals(text: str):
    analysis = analyze(text + "\n", settings=EN)
    [launch] = analysis.flow.launches
    [path] = launch.paths
    return path


def _look(text: str, test: Clause, takes=lambda option: None):
    path = _vals(text)
    return Words(path.args, takes).look(test)


def test_an_option_is_given_by_its_word_or_its_equals_form_the_last_value_winning():
    backend = Clause(Subject.OPTION, ("--attention-backend",), "flash")
    assert _look("torchrun t.py --attention-backend flash", backend).holds is True
    assert _look("torchrun t.py --attention-backend=flash", backend).holds is True
    assert _look("torchrun t.py --attention-backend flash --attention-backend fused", backend).holds is False
    assert _look("torchrun t.py --attention-backend-x flash", backend).holds is False
    assert _look("torchrun t.py -- --attention-backend flash", backend).holds is False
    mbs = Clause(Subject.OPTION, ("--micro-batch-size",), "1")
    assert _look("torchrun t.py --micro-batch-size 01", mbs).holds is True


def test_a_word_the_script_cannot_know_makes_absence_and_later_values_unknown():
    fsdp_absent = Clause(Subject.OPTION, ("--use-torch-fsdp2",), equal=False)
    assert _look("torchrun t.py --overlap-grad-reduce", fsdp_absent).holds is True
    assert _look("torchrun t.py --overlap-grad-reduce $EXTRA", fsdp_absent).holds is None
    # the parser says --lr takes a value: the word after it is that value, not an option
    takes = {"--lr": True, "--bf16": False}.get
    assert _look("torchrun t.py --lr $LR", fsdp_absent, takes).holds is True
    assert _look("torchrun t.py --bf16 $X", fsdp_absent, takes).holds is None
    backend = Clause(Subject.OPTION, ("--attention-backend",), "flash")
    assert _look("torchrun t.py --attention-backend flash $EXTRA", backend).holds is None
    assert _look("torchrun t.py --attention-backend $B", backend).holds is None
    # a word taken as a value cannot give the option again
    assert _look("torchrun t.py --attention-backend flash --lr $LR", backend, takes).holds is True
    assert _look("torchrun t.py $EXTRA --use-torch-fsdp2",
                 Clause(Subject.OPTION, ("--use-torch-fsdp2",))).holds is True


def test_judging_a_relation_on_one_path():
    overlap = next(r for r in G.MEGATRON_RELATIONS if r.name == "overlap-connections")

    def outcome(text: str):
        path = _vals(text)
        return judge(overlap, path, path.exported(), Words(path.args, lambda o: None))

    assert outcome("export CUDA_DEVICE_MAX_CONNECTIONS=8\ntorchrun t.py --overlap-grad-reduce").outcome \
        is Outcome.BROKEN
    assert outcome("export CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun t.py --overlap-grad-reduce").outcome \
        is Outcome.KEPT
    assert outcome("export CUDA_DEVICE_MAX_CONNECTIONS=8\ntorchrun t.py --overlap-grad-reduce "
                   "--use-torch-fsdp2").outcome is Outcome.KEPT
    caller = outcome("torchrun t.py --overlap-grad-reduce")
    assert (caller.outcome, caller.assumed) == (Outcome.BROKEN, True)
    cleared = outcome("env -i torchrun t.py --overlap-grad-reduce")
    assert (cleared.outcome, cleared.assumed) == (Outcome.BROKEN, False)  # env -i: absent is unset
    assert outcome('export CUDA_DEVICE_MAX_CONNECTIONS="$(nproc)"\ntorchrun t.py --overlap-grad-reduce').outcome \
        is Outcome.UNKNOWN


# ---------------------------------------------------------------- PG014 on each Megatron relation

def test_fsdp_with_one_connection_is_broken_and_more_is_kept(tree):
    found = contract(tree, "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n" + LAUNCH + " --use-torch-fsdp2\n")
    f = only(found, "fsdp-connections")
    assert f.severity == "error" and (f.line, f.column) == (2, 8)
    assert "CUDA_DEVICE_MAX_CONNECTIONS is 1" in f.message and "--use-torch-fsdp2 is given" in f.message
    assert "(aiak_megatron/megatron/training/arguments.py:41)" in f.message  # the workspace's read
    assert {r.message for r in f.related} >= {"CUDA_DEVICE_MAX_CONNECTIONS is set here",
                                              "--use-torch-fsdp2 is given here"}
    assert not [x for x in f.fixes if x.kind == "fix"]  # any value but 1: no fix is clearly the one
    assert contract(tree, "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\n" + LAUNCH + " --use-torch-fsdp2\n") == []
    assert contract(tree, "#!/bin/bash\n" + LAUNCH + " --use-torch-fsdp2\n") == []  # unset is not "1"


def test_overlap_without_fsdp_needs_one_connection(tree):
    text = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\n" + LAUNCH + " --overlap-grad-reduce\n"
    f = only(contract(tree, text), "overlap-connections")
    assert f.severity == "error" and "(aiak_megatron/megatron/training/arguments.py:44)" in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert fix.description == "Set CUDA_DEVICE_MAX_CONNECTIONS to 1" and fix.safe
    fixed = apply_edits(text.encode(), fix.edits).decode()
    assert "export CUDA_DEVICE_MAX_CONNECTIONS=1\n" in fixed and contract(tree, fixed) == []
    # with FSDP the overlap relation does not apply (and 8 is what FSDP wants)
    assert contract(tree, text.replace("--overlap-grad-reduce", "--overlap-grad-reduce --use-torch-fsdp2")) == []


def test_a_variable_the_script_never_gives_is_the_callers(tree):
    f = only(contract(tree, "#!/bin/bash\n" + LAUNCH + " --overlap-grad-reduce\n"), "overlap-connections")
    assert f.severity == "information"
    assert "the script does not give CUDA_DEVICE_MAX_CONNECTIONS" in f.message and "the caller's" in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert fix.description == "Give the launch CUDA_DEVICE_MAX_CONNECTIONS=1" and not fix.safe
    text = "#!/bin/bash\n" + LAUNCH + " --overlap-grad-reduce\n"
    fixed = apply_edits(text.encode(), fix.edits).decode()
    assert "CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun" in fixed and contract(tree, fixed) == []
    # env -i: the caller's environment does not reach the launch, so absent is unset: an error
    cleared = only(contract(tree, "#!/bin/bash\nenv -i " + LAUNCH + " --overlap-grad-reduce\n"), "overlap-connections")
    assert cleared.severity == "error"
    # a container does not inherit the host's exports, but its image may set the variable
    docker = only(contract(tree, "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ndocker run img "
                           + LAUNCH + " --overlap-grad-reduce\n"), "overlap-connections")
    assert docker.severity == "information" and not [x for x in docker.fixes if x.kind == "fix"]
    assert contract(tree, "#!/bin/bash\ndocker run -e CUDA_DEVICE_MAX_CONNECTIONS=1 img " + LAUNCH
                    + " --overlap-grad-reduce\n") == []


def test_flash_attention_with_the_flash_switch_off(tree):
    text = "#!/bin/bash\nNVTE_FLASH_ATTN=0 " + LAUNCH + " --attention-backend flash\n"
    f = only(contract(tree, text), "flash-attention-env")
    assert f.severity == "error" and "NVTE_FLASH_ATTN is 0" in f.message and "--attention-backend is flash" in f.message
    assert "(aiak_megatron/megatron/language_module.py:6)" in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert contract(tree, apply_edits(text.encode(), fix.edits).decode()) == []
    assert contract(tree, text.replace("flash\n", "fused\n")) == []  # another backend: not this relation
    assert contract(tree, text.replace("NVTE_FLASH_ATTN=0 ", "")) == []  # the code's default is 1
    assert contract(tree, text.replace("=0", "=01")) == []  # int() reads 01 as 1


def test_fused_attention_with_the_fused_switch_off(tree):
    text = ("#!/bin/bash\nexport NVTE_FUSED_ATTN=0\nARGS=(--attention-backend=fused)\n"
            + LAUNCH + ' "${ARGS[@]}"\n')
    f = only(contract(tree, text), "fused-attention-env")
    assert f.severity == "error" and (f.line, f.column) == (2, 8)
    assert contract(tree, text.replace("=0", "=1")) == []


def test_query_key_layer_scaling_needs_its_transformer_engine_switch(tree):
    text = "#!/bin/bash\nexport NVTE_APPLY_QK_LAYER_SCALING=0\n" + LAUNCH + " --apply-query-key-layer-scaling\n"
    f = only(contract(tree, text), "qk-layer-scaling-env")
    # the table names transformer_engine.py; the fixture reads it in validate_args: that read is named
    assert f.severity == "error" and "(aiak_megatron/megatron/training/arguments.py:46)" in f.message
    assert contract(tree, text.replace("=0", "=1")) == []
    assert contract(tree, text.replace(" --apply-query-key-layer-scaling", "")) == []


def test_a_word_the_script_cannot_know_gives_no_finding(tree):
    text = "#!/bin/bash\nexport NVTE_FLASH_ATTN=0\n" + LAUNCH + " --attention-backend flash $EXTRA_ARGS\n"
    assert contract(tree, text) == []
    text = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\n" + LAUNCH + " --overlap-grad-reduce ${EXTRA}\n"
    assert contract(tree, text) == []  # $EXTRA may be --use-torch-fsdp2
    # --lr takes a value in the fixture's parser: $LR is that value, so FSDP's absence is known
    text = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\n" + LAUNCH + " --overlap-grad-reduce --lr $LR\n"
    assert len(contract(tree, text)) == 1


def test_every_path_is_checked_and_a_directive_on_the_launch_silences_it(tree):
    text = ('#!/bin/bash\nif [ "$FAST" = 1 ]; then\n  export CUDA_DEVICE_MAX_CONNECTIONS=8\nelse\n'
            "  export CUDA_DEVICE_MAX_CONNECTIONS=1\nfi\n" + LAUNCH + " --overlap-grad-reduce\n")
    f = only(contract(tree, text), "overlap-connections")
    assert f.line == 3
    silenced = text.replace(LAUNCH, "# packgate disable=contract\n" + LAUNCH)
    assert contract(tree, silenced) == []


def test_the_fixture_launchers_break_no_relation(tree):
    for script in sorted((tree / "examples" / "quick_start").glob("*.sh")):
        text = script.read_text(encoding="utf-8")
        found = [f for f in analyze(text, path=str(script), settings=EN).findings if f.code == "PG014"]
        assert found == [], (script.name, [f.message for f in found])


# ---------------------------------------------------------------- which code the relation is of

def test_a_profile_relation_is_checked_only_where_the_code_reads_its_variable(tmp_path):
    root = tmp_path / "other"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0"\n')
    (root / "pkg" / "data.py").write_text('import os\nPACKED = int(os.environ.get("OFFLINE_PACKED_DATA", 0)) == 1\n')
    text = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun pkg/train.py --use-torch-fsdp2\n"
    script = root / "run.sh"
    script.write_text(text)
    invalidate()
    try:
        for profile in ("ov2", "auto"):
            found = analyze(text, path=str(script), settings=Settings(lang="en", profile=profile)).findings
            assert [f for f in found if f.code == "PG014"] == [], profile
    finally:
        invalidate()


def test_without_code_the_chosen_profile_decides_and_an_assumed_one_only_informs():
    text = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun train.py --use-torch-fsdp2\n"
    [chosen] = [f for f in analyze(text, settings=Settings(lang="en", profile="ov2")).findings if f.code == "PG014"]
    assert chosen.severity == "error" and "(aiak_megatron/megatron/training/arguments.py:474)" in chosen.message
    [assumed] = [f for f in analyze(text, settings=EN).findings if f.code == "PG014"]
    assert assumed.severity == "information"
    assert [f for f in analyze(text, settings=Settings(lang="en", profile="ov15")).findings if f.code == "PG014"] == []
    # a guess on a guess (no code, an assumed profile, a value the caller gives) says nothing
    caller = "#!/bin/bash\ntorchrun train.py --overlap-grad-reduce\n"
    assert [f for f in analyze(caller, settings=EN).findings if f.code == "PG014"] == []


# ---------------------------------------------------------------- PG001 / PG003 unchanged

def test_pg014_never_reports_the_entries_pg001_and_pg003_own():
    leak = "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 4\n"
    codes = [f.code for f in analyze(leak, settings=Settings(lang="en", profile="ov2")).findings]
    assert "PG001" in codes and "PG014" not in codes
    mbs = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
           "torchrun train.py --micro-batch-size 4\n")
    codes = [f.code for f in analyze(mbs, settings=Settings(lang="en", profile="ov2")).findings]
    assert codes == ["PG003"]


@pytest.mark.parametrize("script", sorted((ROOT / "examples").glob("*.sh")) +
                         sorted((ROOT / "tests" / "golden" / "cases").glob("*.sh")), ids=lambda p: p.name)
def test_the_examples_and_golden_cases_break_no_megatron_relation(script):
    text = script.read_text(encoding="utf-8")
    for profile in ("ov2", "auto"):
        found = analyze(text, settings=Settings(lang="en", profile=profile)).findings
        assert [f.message for f in found if f.code == "PG014"] == []


# ---------------------------------------------------------------- a team's relation

def _team(**entry) -> Settings:
    return Settings(lang="en").merged({"contract": [entry]}, [], strict=True, where="", source=".packgate.toml")


def test_a_team_relation_both_on_or_both_off():
    settings = _team(kind="both", vars=["USE_PACKED_LOADER", "USE_PACKED_SAMPLER"], absent="unset",
                     reason="The sampler expects packed batches")
    text = "#!/bin/bash\nexport USE_PACKED_LOADER=1\nexport USE_PACKED_SAMPLER=0\ntorchrun train.py\n"
    [f] = [f for f in analyze(text, settings=settings).findings if f.code == "PG014"]
    assert f.severity == "error" and " contract[1]:" in f.message and "(.packgate.toml: contract[1])" in f.message
    assert "USE_PACKED_LOADER is 1 and USE_PACKED_SAMPLER is 0" in f.message
    assert "The sampler expects packed batches" in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    fixed = apply_edits(text.encode(), fix.edits).decode()
    assert "export USE_PACKED_SAMPLER=1\n" in fixed
    assert [f for f in analyze(fixed, settings=settings).findings if f.code == "PG014"] == []
    unset = "#!/bin/bash\nexport USE_PACKED_LOADER=1\ntorchrun train.py\n"
    [f] = [f for f in analyze(unset, settings=settings).findings if f.code == "PG014"]
    assert f.severity == "error" and "USE_PACKED_SAMPLER is unset" in f.message  # absent = "unset"


def test_a_team_relation_on_an_option_value():
    settings = _team(kind="requires", name="packed-loader-mbs", when={"var": "USE_PACKED_LOADER", "value": "1"},
                     then={"option": "--micro-batch-size", "value": "1"}, at="train/data.py:88")
    text = "#!/bin/bash\nexport USE_PACKED_LOADER=1\ntorchrun train.py --micro-batch-size 2\n"
    [f] = [f for f in analyze(text, settings=settings).findings if f.code == "PG014"]
    assert "packed-loader-mbs" in f.message and "(train/data.py:88)" in f.message
    assert "--micro-batch-size is 2" in f.message and (f.line, f.column) == (2, 8)
    assert [f for f in analyze(text.replace("size 2", "size 1"), settings=settings).findings if f.code == "PG014"] == []
    assert [f for f in analyze(text.replace("=1", "=0"), settings=settings).findings if f.code == "PG014"] == []


def test_a_team_relation_keeps_the_place_it_names(tree):
    settings = _team(kind="requires", name="bf16-connections", when={"option": "--bf16"},
                     then={"var": "CUDA_DEVICE_MAX_CONNECTIONS", "value": "1"}, at="docs/cluster.md:12")
    text = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\n" + LAUNCH + " --bf16\n"
    f = only(contract(tree, text, settings=settings), "bf16-connections")
    assert f.message.endswith("(docs/cluster.md:12)")  # not the workspace's read of the variable
