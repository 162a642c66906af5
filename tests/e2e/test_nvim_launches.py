"""`:PackgateLaunches` in a real headless Neovim 0.11: the server's packgate.showLaunches text in a
scratch buffer beside the script (the Neovim side of `packgate launches`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from test_nvim import CLIENT_DIR, _nvim_binary, _packgate_binary

DRIVER = Path(__file__).resolve().parent / "nvim_launches_driver.lua"
SCRIPT = """#!/bin/bash
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
"""


def test_packgate_launches_opens_what_each_launch_sees(tmp_path: Path) -> None:
    nvim, packgate = _nvim_binary(), _packgate_binary()
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    script = project / "stage2.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    result_path = tmp_path / "result.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NVIM", "VIM", "MYVIMRC", "XDG_"))}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        (tmp_path / "xdg" / name.lower()).mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(tmp_path / "xdg" / name.lower())
    proc = subprocess.Popen([str(nvim), "--clean", "--headless", "-n", "-l", str(DRIVER), str(CLIENT_DIR),
                             str(packgate), str(script), str(result_path)],
                            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=50)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # Neovim and its server share the new session
        output, _ = proc.communicate()
        pytest.fail(f"Neovim did not finish:\n{output.decode(errors='replace')}")
    assert result_path.is_file(), output.decode(errors="replace")
    result = json.loads(result_path.read_text(encoding="utf-8"))
    assert "error" not in result, result
    lines = result["lines"]
    assert f"{script}:4:1: torchrun -> aiak_training_llm/train.py" in lines, lines
    assert "    argv: --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1" in lines, lines
    assert any(l.split()[:4] == ["OFFLINE_PACKING_BMR", "1", "export", "line"] for l in lines), lines
    assert result["buftype"] == "nofile" and result["scratch_is_not_the_script"], result
