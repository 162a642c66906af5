"""End to end in a real Emacs with Eglot (Debian emacs-nox 28 and elpa-eglot 1.9), headless.

tests/e2e/emacs_driver.el loads the README's setup (emacs_eglot.el) and does what a user does (open the launcher, wait for Flymake, hover
through eldoc, M-x eglot-code-actions, save) and writes what it saw; this test judges it.
Eglot 1.9 offers no position encodings, so the server answers in UTF-16 and Emacs turns that
into character columns: the span must land on the gate after the CJK text and the emoji.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from editors import FIXED, GATE, GATE_LINE, GATE_ROW, SCRIPT, clean_env, has_truth_table, require_program

DRIVER = Path(__file__).resolve().parent / "emacs_driver.el"


def _client_installed(client: str) -> None:
    package = {"eglot": "elpa-eglot", "lsp-mode": "elpa-lsp-mode"}[client]
    if not list(Path("/usr/share/emacs/site-lisp/elpa").glob(f"{client}-*")):
        pytest.skip(f"Emacs suite: {client} is not installed (Debian package {package}): sudo .ci/install-editors installs it")


@pytest.mark.parametrize("client", ["eglot", "lsp-mode"])
def test_emacs_span_hover_quickfix(tmp_path: Path, client: str) -> None:
    """PG001 spans the gate on a CJK + emoji line; hover, the quick fix applied, the finding gone."""
    emacs = require_program("emacs", "Emacs (emacs-nox)")
    _client_installed(client)
    launcher = tmp_path / "work" / "train.sh"
    launcher.parent.mkdir()
    launcher.write_text(SCRIPT, encoding="utf-8")
    out = tmp_path / "emacs.json"
    bin_dir = Path(sys.executable).parent
    env = clean_env(tmp_path, f"{bin_dir}:/usr/bin:/bin", packgate_on_path=True)
    run = subprocess.run([emacs, "--batch", "-Q", "-l", str(DRIVER), str(launcher), str(out), client],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.is_file(), f"Emacs wrote no result:\n{run.stdout}\n{run.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))
    why = f"\n{json.dumps(result, ensure_ascii=False, indent=1)}\n{run.stderr[-3000:]}"
    assert "error" not in result and "failed" not in result, why

    diagnostic = result["diagnostic"]
    assert diagnostic["line"] == GATE_ROW + 1, why
    assert GATE in diagnostic["covered"], why
    # Emacs counts characters: exactly the gate, after 7 CJK characters and an emoji.
    start = GATE_LINE.index(GATE)
    assert (diagnostic["start"], diagnostic["end"]) == (start, start + len(GATE)), why
    assert diagnostic["covered"] == GATE, why

    assert has_truth_table(result["hover"]), why
    assert any("OFFLINE_PACKED_DATA" in title for title in result["titles"]), why
    assert launcher.read_text(encoding="utf-8") == FIXED, why
    assert result["remaining"] == 0, why
