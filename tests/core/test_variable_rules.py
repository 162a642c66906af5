"""The launch contract's variable rules over a training tree of our own (tests/fixtures/repo_contract,
copied to tmp_path): PG012 unread-var, PG013 misread-value, PG005 for every int()/float() read,
PG008 for every exported variable, and the table of names libraries read."""

import shutil
from pathlib import Path

import pytest

from packgate import Settings, analyze
from packgate.core.code.envreads import Parse
from packgate.core.code.index import contract_index
from packgate.core.code.libraries import LIBRARY_NAMES, Match, library_of
from packgate.core.findings import Applicability
from packgate.core.rules.pg012_unread_var import family
from packgate.core.text import apply_edits

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"
OV2 = Settings(lang="en", profile="ov2")
OURS = {"PG002", "PG005", "PG008", "PG012", "PG013"}
LAUNCH = "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1\n"


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    return root


def lint(root: Path, text: str, name: str = "examples/quick_start/t.sh", settings=OV2):
    script = root / name
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_bytes(text.encode("utf-8"))
    return analyze(text, path=str(script), settings=settings)


def found(analysis, *codes):
    return [f for f in analysis.findings if f.code in codes]


def spot(f):
    return (f.code, f.line, f.column, f.end_line, f.end_column)


# -- PG008: the double PYTORCH_CUDA_ALLOC_CONF exports ----------------------------------------

@pytest.mark.parametrize("name, line", [("stage_1_alignment.sh", 3), ("stage_2_instruct_2b.sh", 6),
                                        ("stage_2_instruct_4b.sh", 6)])
def test_the_double_alloc_conf_exports_of_the_three_launchers_are_flagged(tree, name, line):
    path = tree / "examples" / "quick_start" / name
    text = path.read_text(encoding="utf-8")
    analysis = analyze(text, path=str(path), settings=OV2)
    [f] = found(analysis, "PG008")
    assert spot(f) == ("PG008", line, 8, line, 31) and f.severity == "information"
    assert f.message.startswith(f"PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 is overwritten on line {line + 1}")
    assert "PyTorch reads one list of options separated by \",\"" in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert fix.applicability is Applicability.UNSAFE
    fixed = apply_edits(analysis.source.data, fix.edits).decode()
    assert "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,garbage_collection_threshold:0.72\n" in fixed
    assert fixed.count("PYTORCH_CUDA_ALLOC_CONF") == 1
    assert found(analyze(fixed, path=str(path), settings=OV2), "PG008") == []


def test_a_value_read_between_the_two_assignments_is_not_lost(tree):
    first = "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n"
    second = "export PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72\n"
    for between in ('echo "$PYTORCH_CUDA_ALLOC_CONF"\n', "python check_memory.py\n",
                    'X="${PYTORCH_CUDA_ALLOC_CONF}"\n', "Y=$(nvidia-smi)\n", LAUNCH):
        assert found(lint(tree, first + between + second + LAUNCH), "PG008") == [], between
    # assignments of other names and comments between read nothing
    text = first + "# 显存碎片整理\nexport NCCL_DEBUG=WARN\n" + second + LAUNCH
    [f] = found(lint(tree, text), "PG008")
    assert f.line == 1


def test_an_exported_variable_assigned_again_offers_removal_only_when_nothing_else_changes(tree):
    analysis = lint(tree, "export HF_HOME=/a\nexport HF_HOME=/b\n" + LAUNCH)
    [f] = found(analysis, "PG008")
    assert f.message == "HF_HOME=/a is overwritten on line 2 before any launch reads it"
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert apply_edits(analysis.source.data, fix.edits).decode() == "export HF_HOME=/b\n" + LAUNCH
    # the second does not export by itself: removing the first would leave HF_HOME unexported
    [f] = found(lint(tree, "export HF_HOME=/a\nHF_HOME=/b\n" + LAUNCH), "PG008")
    assert [x for x in f.fixes if x.kind == "fix"] == []
    # a plain shell variable that is never exported is not the launch's business
    assert found(lint(tree, "X=/a\nX=/b\n" + LAUNCH), "PG008") == []
    # unset
    [f] = found(lint(tree, "export HF_HOME=/a\nunset HF_HOME\n" + LAUNCH), "PG008")
    assert f.message == "HF_HOME=/a is unset on line 2 before any launch reads it"


def test_the_same_option_set_twice_is_not_joined(tree):
    text = ("export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n"
            "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:256\n" + LAUNCH)
    [f] = found(lint(tree, text), "PG008")
    assert "join" not in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert fix.description == "Remove the overwritten assignment"


def test_gate_overwrites_are_reported_as_before(tree):
    text = ("export OFFLINE_PACKING_BMR=0\necho hi\nexport OFFLINE_PACKING_BMR=1\n"
            "export OFFLINE_PACKED_DATA=1\n" + LAUNCH)
    [f] = found(lint(tree, text), "PG008")
    assert f.message == "OFFLINE_PACKING_BMR=0 is overwritten on line 3 before any launch reads it"


# -- PG013 and PG005: values the code reads another way, or cannot parse ---------------------

def test_enable_swanlab_true_is_read_as_off(tree):
    path = tree / "examples" / "quick_start" / "stage_1_alignment.sh"
    analysis = analyze(path.read_text(encoding="utf-8"), path=str(path), settings=OV2)
    [f] = found(analysis, "PG013")
    assert spot(f) == ("PG013", 5, 8, 5, 27) and f.severity == "warning"
    assert f.message == ('ENABLE_SWANLAB=true is read as off: the code compares it with "1" '
                         '(aiak_training_llm/models/encoder.py:13), which true does not match; use 1')
    fixed = apply_edits(analysis.source.data, f.fixes[0].edits).decode()
    assert "export ENABLE_SWANLAB=1\n" in fixed and found(analyze(fixed, path=str(path), settings=OV2), "PG013") == []


@pytest.mark.parametrize("value, flagged", [("conv2d", False), ("CONV2D", False), ("tp_linear", False),
                                            ("conv3d", True), ("linear2", True)])
def test_patch_embed_type_is_one_of_the_choices_after_upper(tree, value, flagged):
    got = found(lint(tree, f"export PATCH_EMBED_TYPE={value}\n" + LAUNCH), *OURS)
    assert [f.code for f in got] == (["PG013"] if flagged else [])
    if flagged:
        assert got[0].message == (
            f"PATCH_EMBED_TYPE={value} matches none of the values the code accepts: the code compares it "
            'in upper case with "CONV2D", "LINEAR", "TP_LINEAR" (aiak_training_llm/models/encoder.py:10)')


def test_te_extra_state_missing_check_true_crashes_at_start_up(tree):
    [f] = found(lint(tree, "export TE_EXTRA_STATE_MISSING_CHECK=true\n" + LAUNCH), *OURS)
    assert spot(f) == ("PG005", 1, 8, 1, 41) and f.severity == "error"
    assert f.message == ("TE_EXTRA_STATE_MISSING_CHECK=true makes int() raise ValueError where the code reads it "
                         "(aiak_training_llm/models/encoder.py:4): the trainer stops at start-up; use an integer")
    assert [x.description for x in f.fixes if x.kind == "fix"] == ["Set TE_EXTRA_STATE_MISSING_CHECK to 0"]


def test_a_data_module_read_raises_inside_a_data_loader_worker(tree):
    (tree / "aiak_training_llm" / "data" / "workers.py").write_text(
        'import os\n\n\ndef shard():\n    return float(os.environ.get("SHARD_RATIO", "0.5"))\n', encoding="utf-8")
    [f] = found(lint(tree, "export SHARD_RATIO=half\n" + LAUNCH), *OURS)
    assert f.code == "PG005"
    assert f.message == ("SHARD_RATIO=half makes float() raise ValueError where the code reads it "
                         "(aiak_training_llm/data/workers.py:5), inside a data-loader worker: the samples or "
                         "batches it reads fail; use a number")


def test_scatter_before_patch_embed_true_is_a_misreading_not_a_crash(tree):
    got = found(lint(tree, "export SCATTER_BEFORE_PATCH_EMBED=true\n" + LAUNCH), *OURS)
    assert [f.code for f in got] == ["PG013"]


def test_without_the_code_the_table_of_known_variables_still_judges(tmp_path):
    """No workspace: PG005 keeps its findings from gates.OTHER_VARS, PG012/PG013 say nothing."""
    text = "export TE_EXTRA_STATE_MISSING_CHECK=true\nexport ENABLE_SWANLAB=true\nexport OFFLINE_PACKING_BMX=1\n" + LAUNCH
    got = analyze(text, settings=OV2).findings
    assert [(f.code, f.line) for f in got if f.code in OURS] == [("PG005", 1)]
    assert "int(v) == 1, at import" in got[0].message


# -- PG012 and PG002 ---------------------------------------------------------------------------

def test_offline_packing_vqa_under_ov2_is_pg002_only(tree):
    text = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH
    assert [f.code for f in found(lint(tree, text), *OURS)] == ["PG002"]


def test_offline_packing_bmx_is_a_typo_of_bmr(tree):
    text = "export OFFLINE_PACKING_BMX=1\n" + LAUNCH
    analysis = lint(tree, text)
    [f] = found(analysis, "PG012")
    assert spot(f) == ("PG012", 1, 8, 1, 27) and f.severity == "warning"
    assert f.message == ("OFFLINE_PACKING_BMX is exported to torchrun (line 2) but no code in the workspace "
                         "reads it: did you mean OFFLINE_PACKING_BMR "
                         "(read at aiak_training_llm/data/multimodal/task_encoder.py:9)?")
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert fix.applicability is Applicability.UNSAFE
    assert apply_edits(analysis.source.data, fix.edits).decode().startswith("export OFFLINE_PACKING_BMR=1\n")


def test_a_name_far_from_its_family_says_stale_and_offers_no_removal(tree):
    [f] = found(lint(tree, "export PATCH_EMBED_LAYOUT=nhwc\n" + LAUNCH), "PG012")
    assert "though the code reads other PATCH_EMBED_* names: stale, or did you mean PATCH_EMBED_TYPE" in f.message
    assert [x for x in f.fixes if x.kind == "fix"] == []


def test_names_of_no_family_the_code_reads_are_left_alone(tree):
    assert found(lint(tree, "export MY_OWN_SETTING=1\nexport RUN_NAME=x\n" + LAUNCH), *OURS) == []


def test_nccl_debug_and_every_library_name_are_silent(tree):
    """Each row of the table, in a family the code reads, is still never reported."""
    reads, exports = [], []
    for row in LIBRARY_NAMES:
        name = row.pattern + "READ_B" if row.match is Match.PREFIX else row.pattern
        fam = family(name)
        if not fam:
            continue
        reads.append(fam + "ZZ_OTHER" if row.match is Match.NAME else row.pattern + "READ_A")
        exports.append(name)
    assert "NCCL_READ_B" in exports and "MASTER_ADDR" in exports and "PYTHONREAD_B" in exports
    code = "import os\n\n" + "".join(f'V{i} = os.environ.get("{n}")\n' for i, n in enumerate(reads))
    (tree / "aiak_training_llm" / "library_reads.py").write_text(code, encoding="utf-8")
    assert all(library_of(n) is not None for n in exports)
    text = "export NCCL_DEBUG=WARN\n" + "".join(f"export {n}=1\n" for n in exports) + LAUNCH
    assert found(lint(tree, text), "PG012") == []
    # the same names, read by nothing outside: a name of a family the code reads is reported
    text = "export SCATTER_BEFORE_PATCH_EMBEDS=1\n" + LAUNCH
    assert [f.code for f in found(lint(tree, text), "PG012")] == ["PG012"]


def test_names_a_child_script_reads_are_not_stale(tree):
    (tree / "examples" / "quick_start" / "child.sh").write_text(
        '#!/bin/bash\necho "bmx is ${OFFLINE_PACKING_BMX}"\n', encoding="utf-8")
    text = "export OFFLINE_PACKING_BMX=1\nbash child.sh\n" + LAUNCH
    assert found(lint(tree, text), "PG012") == []
    # run by the launch itself
    assert found(lint(tree, "export OFFLINE_PACKING_BMX=1\nsrun bash child.sh\n"), "PG012") == []
    # a child the launcher runs but that cannot be read may read anything
    assert found(lint(tree, 'export OFFLINE_PACKING_BMX=1\nbash "$HERE/other.sh"\n' + LAUNCH), "PG012") == []
    # a child that reads something else
    (tree / "examples" / "quick_start" / "other.sh").write_text("echo $HOME\n", encoding="utf-8")
    [f] = found(lint(tree, "export OFFLINE_PACKING_BMX=1\n./other.sh\n" + LAUNCH), "PG012")
    assert f.line == 1


def test_names_the_launcher_expands_itself_are_not_stale(tree):
    text = 'export OFFLINE_PACKING_BMX=1\ntorchrun aiak_training_llm/train.py --x "$OFFLINE_PACKING_BMX"\n'
    assert found(lint(tree, text), "PG012") == []


def test_no_contract_no_finding(tmp_path):
    text = "export OFFLINE_PACKING_BMX=1\nexport ENABLE_SWANLAB=true\n" + LAUNCH
    assert found(analyze(text, settings=OV2), "PG012", "PG013") == []
    lone = tmp_path / "lone" / "t.sh"  # a project with no Python code
    lone.parent.mkdir()
    (tmp_path / "lone" / "pyproject.toml").write_text("[project]\nname='x'\n")
    assert found(analyze(text, path=str(lone), settings=OV2), "PG012", "PG013") == []


# -- every variable the code reads, spelled as it reads it ------------------------------------

def _good_value(read) -> str:
    values = [v for v in read.values if isinstance(v, str)]
    if read.parse in (Parse.INT_EQ, Parse.BOOL_INT, Parse.INT):
        return str(read.values[0]) if read.values else "0"
    if read.parse is Parse.FLOAT:
        return "1.0"
    if values:
        return values[0].lower() if read.parse in (Parse.UPPER_EQ, Parse.UPPER_IN) else values[0]
    return "/tmp" if read.parse is Parse.PATH else "1"


def test_no_finding_on_any_variable_the_code_reads_spelled_as_it_reads_it(tree):
    index = contract_index(str(tree))
    names = sorted(index.names_read())
    assert {"ENABLE_SWANLAB", "PATCH_EMBED_TYPE", "TE_EXTRA_STATE_MISSING_CHECK"} <= set(names)
    lines = [f"export {n}={_good_value(index.reads_of(n)[0])}\n" for n in names]
    got = found(lint(tree, "".join(lines) + LAUNCH), *OURS)
    assert got == [], [f.message for f in got]


# -- positions: Chinese text, tabs, CRLF -------------------------------------------------------

def test_positions_count_code_points_with_chinese_tabs_and_crlf(tree):
    text = ("#!/bin/bash\r\n"
            "# 第二阶段：显存设置\r\n"
            'A="训练"; export ENABLE_SWANLAB=true  # 中文注释\r\n'
            "\texport PATCH_EMBED_TYPE=conv3d\r\n"
            "\texport OFFLINE_PACKING_BMX=1\r\n"
            "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 # 碎片\r\n"
            "export PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72\r\n"
            + LAUNCH.replace("\n", "\r\n"))
    analysis = lint(tree, text)
    assert sorted(spot(f) for f in found(analysis, *OURS)) == [
        ("PG008", 6, 8, 6, 31),
        ("PG012", 5, 9, 5, 28),
        ("PG013", 3, 16, 3, 35),
        ("PG013", 4, 9, 4, 32),
    ]


def test_a_file_without_a_launch_names_the_environment_it_leaves(tree):
    [f] = found(lint(tree, "export OFFLINE_PACKING_BMX=1\n", name="examples/env.sh"), "PG012")
    assert f.message.startswith("OFFLINE_PACKING_BMX is exported to the environment this file leaves but no code")


def test_the_join_keeps_the_export(tree):
    """Joining into a second assignment that does not export by itself would leave PyTorch
    without the variable: no fix then, the message still says what was meant."""
    text = ("export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n"
            "PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72\n" + LAUNCH)
    [f] = found(lint(tree, text), "PG008")
    assert "join both into one" in f.message and [x for x in f.fixes if x.kind == "fix"] == []
    quoted = ("export PYTORCH_CUDA_ALLOC_CONF='max_split_size_mb:128'\n"
              "export PYTORCH_CUDA_ALLOC_CONF=\"garbage_collection_threshold:0.72\"\n" + LAUNCH)
    analysis = lint(tree, quoted)
    [f] = found(analysis, "PG008")
    fixed = apply_edits(analysis.source.data, f.fixes[0].edits).decode()
    assert fixed == ('export PYTORCH_CUDA_ALLOC_CONF="max_split_size_mb:128,garbage_collection_threshold:0.72"\n'
                     + LAUNCH)


def test_a_name_an_unparsable_file_mentions_is_not_called_stale(tree):
    broken = tree / "aiak_training_llm" / "broken.py"
    broken.write_text('import os\nBMX = os.environ.get("OFFLINE_PACKING_BMX"\n', encoding="utf-8")
    assert contract_index(str(tree)).skipped()
    assert found(lint(tree, "export OFFLINE_PACKING_BMX=1\n" + LAUNCH), "PG012") == []
    assert [f.code for f in found(lint(tree, "export OFFLINE_PACKING_BMZ=1\n" + LAUNCH), "PG012")] == ["PG012"]
