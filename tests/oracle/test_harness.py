"""The oracle's own machinery: the stubs record what a launch gets, docker is read the way it
documents itself, and the comparison does flag a packgate view that is wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from packgate.core.gates import profile

from oracle_harness.bashside import Input, Observed, Run, run_script
from oracle_harness.compare import compare
from oracle_harness.packside import FindingView, LaunchView, PackView, PathView, Value

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
B, P = "OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA"


def _run(tmp_path: Path, body: str, inp: str = ""):
    script = tmp_path / "case.sh"
    script.write_text("#!/bin/bash\n" + body, encoding="utf-8")
    return run_script(script, [], Input.parse(inp), tmp_path / "run")


@needs_bash
def test_stub_records_argv_gates_and_line(tmp_path):
    """A launch records its argv, the gates it received (set or unset), its size and its line."""
    run = _run(tmp_path, f"export {B}=1\n\nnumactl -N 0 torchrun t/train.py --micro-batch-size=2\n"
                         f"{P}= taskset -c 0 python -m torch.distributed.run t/train.py\n")
    first, second = sorted((o for o in run.launches if o.launcher != "<end>"), key=lambda o: o.line)
    assert (first.launcher, first.gates, first.mbs, first.line) == ("torchrun", ("1", None, None), "2", 4)
    assert (second.launcher, second.gates, second.mbs, second.line) == ("python", ("1", "", None), None, 5)


@needs_bash
def test_nothing_leaks_in_and_inputs_reach_the_script(tmp_path, monkeypatch):
    """The harness's own environment stays out; the input's variables, arguments and files get in."""
    monkeypatch.setenv(B, "1")
    run = _run(tmp_path, f'[ -f marker ] && export {P}="$1$STAGE"\ntorchrun train.py\n',
               "STAGE=x +marker -- 1")
    (obs,) = [o for o in run.launches if o.launcher == "torchrun"]
    assert obs.gates == (None, "1x", None)


@needs_bash
def test_only_training_launches_count(tmp_path):
    """python on another script is no launch; the end of the script is recorded as <end>."""
    run = _run(tmp_path, f"python tools/check.py\nexport {B}=1\n")
    assert [(o.launcher, o.gates) for o in run.launches] == [("<end>", ("1", None, None))]


@needs_bash
def test_the_launchers_and_wrappers_come_from_packgates_table(tmp_path, monkeypatch):
    """A launcher, a training module or a wrapper taught to core/gates.py is stubbed and counted
    with no change to the harness (the wrapper here is installed nowhere: a stub that drops its
    options and operands)."""
    from packgate.core import gates

    monkeypatch.setattr(gates, "LAUNCHERS", gates.LAUNCHERS | {"newrun"})
    monkeypatch.setattr(gates, "TRAINING_MODULES", gates.TRAINING_MODULES + ("newpkg",))
    monkeypatch.setattr(gates, "WRAPPER_SYNTAX", {**gates.WRAPPER_SYNTAX,
                                                  "newwrap": (frozenset({"--slots"}), 1)})
    run = _run(tmp_path, f"export {B}=1\nnewrun t/train.py --micro-batch-size 2\n"
                         f"{P}=1 newwrap --slots 4 -q MASK python -m newpkg.train\n")
    seen = sorted((o.line, o.launcher, o.gates, o.mbs) for o in run.launches if o.launcher != "<end>")
    assert seen == [(3, "newrun", ("1", None, None), "2"), (4, "python", ("1", "1", None), None)]
    assert (tmp_path / "run" / ".oracle-bin" / "newrun").exists()


@needs_bash
def test_docker_container_environment(tmp_path):
    """-e NAME=value sets, -e NAME passes the host's export, --env-file adds its lines."""
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "pack.env").write_text(f"# comment\n{P}=1\n", encoding="utf-8")
    run = _run(tmp_path, f"export {B}=1 OFFLINE_PACKING_VQA=1\n"
                         f"docker run --rm -e {B} --env-file pack.env img bash -lc "
                         f"'cd /w && torchrun train.py --micro-batch-size 4'\n")
    (obs,) = [o for o in run.launches if o.launcher == "torchrun"]
    assert (obs.gates, obs.mbs) == (("1", "1", None), "4")


@needs_bash
def test_a_hanging_script_is_stopped(tmp_path, monkeypatch):
    """A script that never ends is killed at the timeout and reported, not waited for."""
    monkeypatch.setattr("oracle_harness.bashside.TIMEOUT", 1.0)
    run = _run(tmp_path, "sleep 30 &\nwhile :; do :; done\n")
    assert run.timed_out


def test_bad_input_word_is_named():
    """An input word that is neither NAME=value nor +file says which word it is."""
    with pytest.raises(ValueError, match="'stage2'"):
        Input.parse("STAGE=1 stage2")


def _view(*paths: PathView) -> PackView:
    launch = LaunchView(0, 10, 0, 2, 2, False, "torchrun train.py", tuple(paths))
    return PackView(profile("ov2"), (launch,), (), "")


def _path(bmr: str | None, packed: str | None) -> PathView:
    def v(x):
        return Value("unset") if x is None else Value("known", x)
    return PathView((), (v(bmr), v(packed), Value("unset")), Value("known", "1"), False, False)


def test_comparison_flags_wrong_and_impossible_paths():
    """A launch bash fed BMR only, against a view that states both gates or neither: the bash
    launch is outside the view, both stated paths are untaken, and the missing PG001 is named."""
    obs = Observed("torchrun", ("torchrun",), ("1", None, None), "1", False, False, 2)
    kinds = sorted(d.kind for d in compare([Run(Input(), [obs], 0, "")],
                                           _view(_path("1", "1"), _path(None, None)), "", True))
    assert kinds == ["finding", "unsound", "untaken", "untaken"]


def test_comparison_accepts_a_matching_view():
    """The same launch against a view stating exactly that path, with its PG001: no disagreement."""
    obs = Observed("torchrun", ("torchrun",), ("1", None, None), "1", False, False, 2)
    view = _view(_path("1", None))
    view = PackView(view.profile, view.launches, (FindingView("PG001", 0, (0, 10), ""),), "")
    assert compare([Run(Input(), [obs], 0, "")], view, "", True) == []
