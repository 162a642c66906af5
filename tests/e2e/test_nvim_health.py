""":checkhealth packgate in a real headless Neovim 0.11, with nvim-client/ on the runtimepath."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from editors import ROOT, SCRIPT, clean_env
from test_nvim import _nvim_binary

CLIENT_DIR = ROOT / "nvim-client"


def _checkhealth(tmp_path: Path, path: str, open_script: bool) -> str:
    """The text of :checkhealth packgate, as Neovim writes it in its health buffer."""
    nvim = _nvim_binary()
    out = tmp_path / "health.txt"
    script = tmp_path / "train.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    commands = [f"set runtimepath^={CLIENT_DIR}", "lua vim.lsp.enable('packgate')"]
    if open_script:
        commands += [f"edit {script}",
                     "lua vim.wait(10000, function() return #vim.lsp.get_clients({name='packgate'}) > 0 "
                     "and vim.lsp.get_clients({name='packgate'})[1].initialized end)"]
    commands += ["checkhealth packgate", f"write! {out}", "qall!"]
    argv = [str(nvim), "--clean", "--headless", "-n"]
    for command in commands:
        argv += ["-c", command]
    run = subprocess.run(argv, env=clean_env(tmp_path, path, packgate_on_path=open_script), capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.is_file(), f"no health output (exit {run.returncode}):\n{run.stdout}\n{run.stderr}"
    return out.read_text(encoding="utf-8")


def test_checkhealth_finds_the_server_its_version_and_encoding(tmp_path: Path) -> None:
    from packgate import __version__

    bin_dir = os.path.dirname(sys.executable)
    text = _checkhealth(tmp_path, f"{bin_dir}:/usr/bin:/bin", open_script=True)
    assert "lsp/packgate.lua" in text, text
    assert f"server: {bin_dir}/packgate" in text, text
    assert f"version: packgate {__version__}" in text, text
    assert "position encoding utf-8" in text, text
    assert "ERROR" not in text, text


def test_checkhealth_says_what_to_do_without_a_server(tmp_path: Path) -> None:
    text = _checkhealth(tmp_path, "/usr/bin:/bin", open_script=False)
    assert "server not found: packgate is not an executable on PATH" in text, text
    assert "vim.lsp.config('packgate', { cmd =" in text, text


def test_help_file_builds_its_tags_and_opens(tmp_path: Path) -> None:
    """doc/packgate.txt as a plugin manager uses it: :helptags, then :help packgate-health."""
    import shutil

    nvim = _nvim_binary()
    copy = tmp_path / "nvim-client"
    shutil.copytree(CLIENT_DIR, copy)
    out = tmp_path / "help.txt"
    argv = [str(nvim), "--clean", "--headless", "-n", "-c", f"set runtimepath^={copy}",
            "-c", f"helptags {copy / 'doc'}", "-c", "help packgate-health",
            "-c", f"lua vim.fn.writefile({{vim.fn.expand('%:t'), vim.api.nvim_get_current_line()}}, '{out}')",
            "-c", "qall!"]
    run = subprocess.run(argv, env=clean_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert out.is_file(), f"(exit {run.returncode}):\n{run.stdout}\n{run.stderr}"
    name, line = out.read_text(encoding="utf-8").splitlines()
    assert name == "packgate.txt" and "*packgate-health*" in line, (name, line, run.stderr)
