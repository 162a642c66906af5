"""What a launch sees (core/launch_view.py): per distinct path, the argv and every listed
variable with its value, where it came from and the line that gave it."""

import shutil
from pathlib import Path

import pytest

from packgate.core.engine import analyze
from packgate.core.launch_view import EnvScope, From, WordKind, launch_view
from packgate.core.settings import Settings

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"


def _view(text: str, scope=EnvScope.ALL, path=None, read=()):
    analysis = analyze(text, path=path, settings=Settings(lang="en"), loader=None, wide=True)
    return launch_view(analysis, scope=scope, read_names=frozenset(read) if path is None else None)


SCRIPT = """\
export A=1
B=2
export C=${Y:-3}
export D=$(date)
export E=$1
export G
unset H
export -n I
ARR=(a b); export ARR
Q=5 torchrun --nproc_per_node 8 train.py $EXTRA "$Q" --mbs ${M:-2} $B
"""


def _env(view, path=0, launch=0):
    return view.launches[launch].paths[path].env_dict()


def test_each_value_says_where_it_came_from():
    env = _env(_view(SCRIPT))
    got = {n: (e.value, e.source, e.line) for n, e in env.items()}
    assert got["A"] == ("1", From.EXPORT, 1)
    assert got["C"] == ("3", From.DEFAULT, 3)
    assert got["D"] == (None, From.UNKNOWN, 4)
    assert got["E"] == (None, From.ARGUMENT, 5)
    assert got["G"][:2] == (None, From.CALLER)  # `export G` alone keeps the caller's G
    assert got["ARR"][:2] == (None, From.ARRAY)  # bash never exports an array
    assert got["Q"] == ("5", From.PREFIX, 10)
    assert got["OFFLINE_PACKED_DATA"] == (None, From.CALLER, None)
    assert "B" not in got  # a shell variable: not exported, not read by any code


def test_the_argv_is_what_the_program_receives_after_its_name():
    launch = _view(SCRIPT).launches[0]
    assert launch.command == "torchrun" and launch.entry == "train.py" and (launch.line, launch.column) == (10, 1)
    argv = launch.paths[0].argv
    assert [w.text for w in argv] == ["--nproc_per_node", "8", "train.py", None, None, "--mbs", "2", "2"]
    assert (argv[3].kind, argv[3].name) == (WordKind.UNKNOWN, "EXTRA")
    assert (argv[6].kind, argv[6].name) == (WordKind.DEFAULT, "M")


def test_read_scope_lists_the_profiles_gates_and_the_names_the_code_reads():
    env = _env(_view(SCRIPT, scope=EnvScope.READ, read={"A", "NCCL_DEBUG"}))
    assert set(env) == {"A", "NCCL_DEBUG", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_BMR"}  # ov2: VQA is dead
    assert env["NCCL_DEBUG"].source == From.CALLER
    ov15 = analyze(SCRIPT, settings=Settings(lang="en", profile="ov15"), loader=None, wide=True)
    assert set(launch_view(ov15, read_names=frozenset()).launches[0].paths[0].env_dict()) == \
        {"OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA"}


def test_paths_that_give_the_same_argv_and_env_are_one():
    text = 'if [ "$X" = 1 ]; then export P=1; else export P=2; fi\ntorchrun train.py\n'
    both = _view(text).launches[0].paths
    assert [p.env_dict()["P"].value for p in both] == ["1", "2"]
    assert all(p.label for p in both) and both[0].label != both[1].label
    (one,) = _view(text, scope=EnvScope.READ).launches[0].paths  # P is not listed: the paths agree
    assert one.label == ""


def test_env_i_and_env_u_leave_names_absent():
    view = _view("export NCCL_DEBUG=INFO\nexport OFFLINE_PACKING_BMR=1\n"
                 "env -i OFFLINE_PACKED_DATA=1 torchrun train.py\n"
                 "unset OFFLINE_PACKING_BMR\ntorchrun train.py\n")
    first, second = (_env(view, launch=i) for i in (0, 1))
    assert first["OFFLINE_PACKING_BMR"].source == From.CLEARED and first["OFFLINE_PACKED_DATA"].value == "1"
    assert (second["OFFLINE_PACKING_BMR"].source, second["OFFLINE_PACKING_BMR"].line) == (From.UNSET, 4)


@pytest.mark.parametrize("launch", ["env -i bash -c 'torchrun train.py'", "env -i bash -c \"bash -c 'torchrun train.py'\"",
                                    "env -i env -S 'torchrun train.py'"])
def test_a_launch_in_a_child_of_a_cleared_environment_sees_names_cleared(launch):
    env = _env(_view(f"export OFFLINE_PACKING_BMR=1\n{launch}\n"))
    assert env["OFFLINE_PACKING_BMR"].source == From.CLEARED and env["OFFLINE_PACKED_DATA"].source == From.CLEARED


def test_an_entry_module_and_the_end_of_file_is_no_launch():
    view = _view("python -m aiak_training_llm.train --lr 1\n")
    assert view.launches[0].entry == "aiak_training_llm.train"
    assert _view("export A=1\n").launches == ()


def test_the_workspace_code_decides_what_is_read(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    script = root / "examples" / "quick_start" / "stage_1_alignment.sh"
    analysis = analyze(script.read_text(), path=str(script), settings=Settings(lang="en"), wide=True)
    view = launch_view(analysis)
    env = view.launches[0].paths[0].env_dict()
    assert view.read_names > 0 and "TE_EXTRA_STATE_MISSING_CHECK" in env
    assert env["ENABLE_SWANLAB"].value == "true" and env["ENABLE_SWANLAB"].source == From.EXPORT


def test_export_after_export_n_exports_again():
    env = _env(_view("export A=1\nexport -n A\nexport B=2\nexport -n B\nexport B\ntorchrun train.py\n"))
    assert (env["A"].value, env["A"].source) == (None, From.UNSET)
    assert (env["B"].value, env["B"].source) == ("2", From.EXPORT)


def test_prefix_and_env_assignments_reach_the_view():
    text = "NCCL_DEBUG=INFO torchrun train.py\nenv NCCL_X=1 torchrun train.py\n"
    first, second = (_env(_view(text), launch=i) for i in (0, 1))
    assert (first["NCCL_DEBUG"].value, first["NCCL_DEBUG"].source, first["NCCL_DEBUG"].line) == ("INFO", From.PREFIX, 1)
    assert (second["NCCL_X"].value, second["NCCL_X"].source) == ("1", From.ENV)


def test_unset_export_n_and_env_u_say_where_the_name_went():
    view = _view("export NCCL_DEBUG=INFO\nexport NCCL_ALGO=ring\nexport HF_HOME=/h\n"
                 "unset NCCL_DEBUG\nexport -n NCCL_ALGO\nenv -u HF_HOME torchrun train.py\n")
    env = _env(view)
    got = {n: (env[n].value, env[n].source, env[n].line) for n in ("NCCL_DEBUG", "NCCL_ALGO", "HF_HOME")}
    assert got == {"NCCL_DEBUG": (None, From.UNSET, 4), "NCCL_ALGO": (None, From.UNSET, 5),
                   "HF_HOME": (None, From.UNSET, 6)}


def test_a_word_says_whether_bash_may_split_or_drop_it():
    view = _view('E=""\ntorchrun train.py $EXTRA "$QUOTED" $E "$E" --x=$Y "${M:-2}" ${N:-3}\n')
    got = [(w.text, w.kind, w.splits) for w in view.launches[0].paths[0].argv]
    assert got == [("train.py", WordKind.KNOWN, False), (None, WordKind.UNKNOWN, True),
                   (None, WordKind.UNKNOWN, False), ("", WordKind.KNOWN, False),  # $E is dropped, "$E" kept
                   (None, WordKind.UNKNOWN, True), ("2", WordKind.DEFAULT, False), ("3", WordKind.DEFAULT, True)]


def test_a_value_from_a_sourced_file_points_at_the_source_command(tmp_path):
    (tmp_path / "env.sh").write_text("export NCCL_DEBUG=INFO\nunset HF_HOME\nexport OFFLINE_PACKED_DATA=1\n",
                                     encoding="utf-8")
    script = tmp_path / "stage.sh"
    script.write_text('export HF_HOME=/h\n\nsource "$(dirname "$0")/env.sh"\ntorchrun train.py\n', encoding="utf-8")
    analysis = analyze(script.read_text(), path=str(script), settings=Settings(lang="en"), wide=True)
    env = launch_view(analysis, scope=EnvScope.ALL, read_names=frozenset()).launches[0].paths[0].env_dict()
    nccl = env["NCCL_DEBUG"]
    assert (nccl.value, nccl.source, nccl.file, nccl.file_line) == ("INFO", From.EXPORT, str(tmp_path / "env.sh"), 1)
    assert nccl.line in (None, 3)  # the `source` command, where the walk notes it (it does for the gates)
    gate = env["OFFLINE_PACKED_DATA"]
    assert (gate.value, gate.line, gate.file_line) == ("1", 3, 3)
    assert (env["HF_HOME"].source, env["HF_HOME"].line) == (From.UNSET, None)  # removed in env.sh: no line here


def test_the_ov2_facts_as_a_dry_run_shows_them(tmp_path):
    """The 2b instruct launcher of the fixture tree: the option no parser defines reaches the
    trainer, the first PYTORCH_CUDA_ALLOC_CONF is lost, the code's own variables are listed."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    script = root / "examples" / "quick_start" / "stage_2_instruct_2b.sh"
    analysis = analyze(script.read_text(), path=str(script), settings=Settings(lang="en"), wide=True)
    (launch,) = launch_view(analysis, scope=EnvScope.ALL).launches
    (path,) = launch.paths
    argv = [w.text for w in path.argv]
    assert argv[argv.index("--image-resolution") + 1] == "1000"
    assert argv[argv.index("--micro-batch-size") + 1] == "1" and argv[argv.index("--data-path") + 1] == "/data/instruct_2b"
    env = path.env_dict()
    assert (env["PYTORCH_CUDA_ALLOC_CONF"].value, env["PYTORCH_CUDA_ALLOC_CONF"].line) == \
        ("garbage_collection_threshold:0.72", 7)
    assert (env["CUDA_DEVICE_MAX_CONNECTIONS"].value, env["CUDA_DEVICE_MAX_CONNECTIONS"].source) == ("1", From.EXPORT)
    assert env["SCATTER_BEFORE_PATCH_EMBED"].source == From.CALLER  # read by the code, never set here
