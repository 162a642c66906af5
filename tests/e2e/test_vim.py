"""End to end in a real Vim with ALE (Debian vim 9 and vim-ale 3.3) and with YouCompleteMe, headless.

tests/e2e/vim_driver.vim opens the launcher with the README's ALE setup (tests/e2e/vim_ale.vim,
which offers the utf-8 position encoding because ALE reads LSP columns as bytes), waits for the
location list, shows :ALEHover in the preview window, answers :ALECodeAction's prompt with the
number of the fix, as a user types it, saves, and writes what it saw; this test judges it.
tests/e2e/vim_ycm_driver.vim does the same with the README's YouCompleteMe setup (vim_ycm.vim),
which converts the server's UTF-16 columns itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from editors import FIXED, GATE, GATE_LINE, GATE_ROW, SCRIPT, clean_env, has_truth_table, require_program

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "vim_driver.vim"


def _run_vim(tmp_path: Path, driver: Path, *settings: str) -> tuple[dict, str, Path]:
    """Run `driver` on the launcher in a clean headless Vim; what it saw, the context, the file."""
    vim = require_program("vim", "Vim")
    launcher = tmp_path / "work" / "train.sh"
    launcher.parent.mkdir()
    launcher.write_text(SCRIPT, encoding="utf-8")
    out = tmp_path / "vim.json"
    bin_dir = Path(sys.executable).parent
    command = [vim, "-N", "-u", "NONE", "-i", "NONE", "-n", "-es",
               "--cmd", f"let g:driver_file = {json.dumps(str(launcher))}",
               "--cmd", f"let g:driver_out = {json.dumps(str(out))}"]
    for setting in settings:
        command += ["--cmd", setting]
    command += ["-S", str(driver)]
    # The client lists the fixes and asks for a number: the first exports OFFLINE_PACKED_DATA.
    run = subprocess.run(command, input="1\n", env=clean_env(tmp_path, f"{bin_dir}:/usr/bin:/bin", packgate_on_path=True),
                         capture_output=True, text=True, timeout=120)
    assert out.is_file(), f"Vim wrote no result (exit {run.returncode}):\n{run.stdout}\n{run.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))
    why = f"\n{json.dumps(result, ensure_ascii=False, indent=1)}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return result, why, launcher


def test_vim_ale_span_hover_quickfix(tmp_path: Path) -> None:
    """PG001 at the gate's byte column on a CJK + emoji line; hover, the quick fix applied, the finding gone."""
    if not Path("/usr/share/vim-ale/plugin/ale.vim").is_file():
        pytest.skip("Vim suite: ALE is not installed (Debian package vim-ale): sudo .ci/install-editors installs it")
    result, why, launcher = _run_vim(tmp_path, DRIVER)
    assert "error" not in result and "failed" not in result, why

    diagnostic = result["diagnostic"]
    assert diagnostic["lnum"] == GATE_ROW + 1, why
    byte_col = len(GATE_LINE[:GATE_LINE.index(GATE)].encode("utf-8")) + 1
    # Vim's columns are 1-based bytes, the end inclusive: exactly the gate's bytes.
    assert (diagnostic["col"], diagnostic["end_col"]) == (byte_col, byte_col + len(GATE) - 1), why

    assert has_truth_table(result["hover"]), why
    assert launcher.read_text(encoding="utf-8") == FIXED, why
    assert result["remaining"] == 0, why


def test_vim_ale_without_utf8_reads_utf16_columns_as_bytes(tmp_path: Path) -> None:
    """Why the README offers utf-8 for ALE: without it the server counts UTF-16 and ALE takes the
    number as a byte column, so after CJK text and an emoji the finding starts too far left."""
    if not Path("/usr/share/vim-ale/plugin/ale.vim").is_file():
        pytest.skip("Vim suite: ALE is not installed (Debian package vim-ale): sudo .ci/install-editors installs it")
    result, why, _ = _run_vim(tmp_path, DRIVER, "let g:driver_without_utf8 = 1")
    assert "diagnostic" in result, why
    utf16 = len(GATE_LINE[:GATE_LINE.index(GATE)].encode("utf-16-le")) // 2
    byte_col = len(GATE_LINE[:GATE_LINE.index(GATE)].encode("utf-8")) + 1
    assert result["diagnostic"]["col"] == utf16 + 1 != byte_col, why


def test_vim_youcompleteme_span_hover_fixit(tmp_path: Path) -> None:
    """The same with YouCompleteMe: the byte column after CJK + emoji, GetHover, FixIt, finding gone."""
    if not Path("/usr/share/vim-youcompleteme/plugin/youcompleteme.vim").is_file():
        pytest.skip("Vim suite: YouCompleteMe is not installed (Debian package vim-youcompleteme): "
                    "sudo .ci/install-editors installs it")
    result, why, launcher = _run_vim(tmp_path, HERE / "vim_ycm_driver.vim")
    assert "error" not in result and "failed" not in result, why
    diagnostic = result["diagnostic"]
    assert diagnostic["lnum"] == GATE_ROW + 1, why
    assert diagnostic["col"] == len(GATE_LINE[:GATE_LINE.index(GATE)].encode("utf-8")) + 1, why
    assert has_truth_table(result["hover"]), why
    assert launcher.read_text(encoding="utf-8") == FIXED, why
    assert result["remaining"] == 0, why
