"""What the real-editor suites share: the leaky launcher they open, and finding the editors.

An editor that is not installed skips its suite with the reason and the command that installs
it (`.ci/install-editors`, as root); nothing is skipped without saying so.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL_HINT = "sudo .ci/install-editors installs it"

# Chinese comments, and Chinese plus an emoji before the gate on its own line, so that the
# UTF-8 byte column, the UTF-16 column and the code-point column of the gate all differ.
GATE = "OFFLINE_PACKING_BMR"
GATE_LINE = "export RUN_NAME='二阶段-打包🚀' OFFLINE_PACKING_BMR='1'"
SCRIPT = f"""#!/bin/bash
# 第二阶段训练：图文对齐，使用离线打包的数据
# 注意：这里只打开了数据层的开关
set -euo pipefail

{GATE_LINE}

torchrun --nproc_per_node 8 train.py \\
    --micro-batch-size 1
"""
GATE_ROW = SCRIPT.splitlines().index(GATE_LINE)
FIX_LINE = "export OFFLINE_PACKED_DATA='1'"
FIXED = "\n".join(SCRIPT.splitlines()[: GATE_ROW + 1] + [FIX_LINE] + SCRIPT.splitlines()[GATE_ROW + 1:]) + "\n"


def has_truth_table(hover: str) -> bool:
    """Whether a hover on the gate shows its four (BMR, PACKED_DATA) combinations: as Markdown
    table rows, or as the plain text a client that asks for plain text gets."""
    rows = [line.strip().strip("|").split("|") for line in hover.splitlines() if line.lstrip().startswith("|")]
    plain = all(f"OFFLINE_PACKING_BMR={bmr} OFFLINE_PACKED_DATA={data}" in hover for bmr in "01" for data in "01")
    return GATE in hover and (plain or len(table_combinations(rows)) == 4)


def table_combinations(rows: list[list[str]]) -> set[tuple[str, str]]:
    """The (BMR, PACKED_DATA) pairs of a rendered truth table: the first two 0/1 cells in a row."""
    found = set()
    for cells in rows:
        cells = [c.strip() for c in cells]
        for i in range(len(cells) - 1):
            if cells[i] in ("0", "1") and cells[i + 1] in ("0", "1"):
                found.add((cells[i], cells[i + 1]))
                break
    return found


def utf16_column(line: str, index: int) -> int:
    """The UTF-16 column of the code point at `index` of `line` (what LSP clients count by default)."""
    return len(line[:index].encode("utf-16-le")) // 2


def e2e_cache() -> Path:
    """Where .ci/install-editors puts what Debian does not package (code-server)."""
    if os.environ.get("PACKGATE_E2E_CACHE"):
        return Path(os.environ["PACKGATE_E2E_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "packgate-e2e"


def require_program(name: str, what: str) -> str:
    """The program's path, or skip the suite saying which editor is missing and how to install it."""
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{what} is not installed ({name} not on PATH): {INSTALL_HINT}")
    return found


def clean_env(tmp_path: Path, path: str = "/usr/local/bin:/usr/bin:/bin", packgate_on_path: bool = False) -> dict[str, str]:
    """An environment with the user's folders in tmp_path and, unless asked, no packgate on PATH."""
    env = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM", "TMPDIR")}
    env.update(HOME=str(tmp_path / "home"), PATH=path)
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = tmp_path / "xdg" / name.lower()
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    (tmp_path / "home").mkdir(exist_ok=True)
    if not packgate_on_path:
        assert shutil.which("packgate", path=path) is None, f"a packgate on {path} would hide what is tested"
    return env
