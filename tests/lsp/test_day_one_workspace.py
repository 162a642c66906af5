"""The editor agrees with CI: workspace/diagnostic covers exactly the scripts `packgate check .`
checks (`exclude` / `extend-exclude` of the configuration, `.gitignore`, `.ignore`, environment
folders)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from lsp_helpers import PULLING, capabilities, server_env, session

pytestmark = pytest.mark.asyncio(loop_scope="session")

BAD = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"


def make(root: Path, layout: dict) -> None:
    for rel, text in layout.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def checked_by_cli(folder: Path) -> set:
    """The files `packgate check --format json .` reports, run in folder, as absolute paths."""
    done = subprocess.run([sys.executable, "-m", "packgate", "check", "--format", "json", "--profile", "ov2", "."],
                          cwd=folder, env=server_env(), capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return {os.path.realpath(folder / d["path"]) for d in json.loads(done.stdout)["diagnostics"]}


async def reported(client) -> set:
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    return {os.path.realpath(types_path(item.uri)) for item in report.items if list(item.items)}


def types_path(uri: str) -> str:
    from pygls.uris import to_fs_path
    return to_fs_path(uri)


async def test_workspace_diagnostics_skip_what_check_skips(tmp_path):
    root = tmp_path / "proj"
    make(root, {
        ".packgate.toml": 'profile = "ov2"\nexclude = ["vendor"]\nextend-exclude = ["scripts/old/*"]\n',
        "run.sh": BAD, "vendor/bad.sh": BAD, "scripts/old/legacy.sh": BAD, "scripts/new/old.sh": BAD,
        "lib/old/keep.sh": BAD,  # `scripts/old/*` is anchored at the configuration's folder
        ".gitignore": "generated/\n", "generated/gen.sh": BAD,
        ".ignore": "scratch.sh\n", "scratch.sh": BAD,
        "env/pyvenv.cfg": "home = /usr\n", "env/bin/activate.sh": BAD, "venv/bin/x.sh": BAD,
    })
    (root / ".git").mkdir()
    expected = {os.path.realpath(root / p) for p in ("run.sh", "scripts/new/old.sh", "lib/old/keep.sh")}
    assert checked_by_cli(root) == expected
    async with session(capabilities(PULLING), folders=[root]) as client:
        assert await reported(client) == expected


async def test_a_configuration_below_the_workspace_folder_anchors_its_patterns(tmp_path):
    make(tmp_path, {"team/.packgate.toml": 'profile = "ov2"\nexclude = ["old/*"]\n',
                    "team/old/x.sh": BAD, "team/new/y.sh": BAD, "old/z.sh": BAD})
    async with session(capabilities(PULLING), folders=[tmp_path]) as client:
        got = await reported(client)
    assert got == {os.path.realpath(tmp_path / "team/new/y.sh"), os.path.realpath(tmp_path / "old/z.sh")}
    assert checked_by_cli(tmp_path / "team") == {os.path.realpath(tmp_path / "team/new/y.sh")}
