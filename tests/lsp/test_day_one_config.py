"""The editor side of "trusted on a real repository on day one": a configuration file's invalid
entries are shown once, with the CLI's words, and its valid ones still apply; per-file-ignores,
code prefixes and extendSelect reach the editor through the same Settings."""

from __future__ import annotations

import os

import pytest
import pytest_asyncio
from lsprotocol import types

from lsp_helpers import capabilities, codes, diagnostics, open_doc, push_count, pushed, replace_all, session

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
# under ov2: PG002 (VQA is dead, warning) and PG001 (PACKED_DATA without BMR, error)
VQA_SCRIPT = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def vscode():
    """A VS Code client of its own: these tests change the server's settings."""
    async with session(capabilities("visual_studio_code")) as client:
        yield client


async def reconfigure(client, settings, uri: str | None = None) -> None:
    seen = push_count(client, uri) if uri else 0
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    if uri:
        await pushed(client, uri, after=seen)


def by_code(diags) -> dict:
    return {d.code: d for d in diags}


async def test_an_invalid_entry_is_shown_once_and_the_valid_ones_apply(vscode, tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.packgate]\nprofile = "ov2"\nlang = "fr"\n'
                      '[tool.packgate.severity]\nPG002 = "error"\nPG008 = "loud"\n')
    script = tmp_path / "train.sh"
    script.write_text(VQA_SCRIPT)
    uri = open_doc(vscode, VQA_SCRIPT, uri=script.as_uri())
    found = by_code(await diagnostics(vscode, uri, 1))
    # the table's valid entry applies although its neighbour is invalid
    assert found["PG002"].severity == types.DiagnosticSeverity.Error
    for version in range(2, 5):  # typing does not show it again
        text = VQA_SCRIPT + "#" * version + "\n"
        replace_all(vscode, uri, version, text)
        await diagnostics(vscode, uri, version)
    where = os.path.realpath(config)
    expected = f'{where}: [tool.packgate] lang = "fr": expected one of en, zh, both'
    shown = [m.message for m in vscode.messages if where in m.message]
    assert shown.count(expected) == 1, shown
    assert sum("severity.\"PG008\" = \"loud\"" in m for m in shown) == 1, shown
    assert len(shown) == 2, shown


async def test_per_file_ignores_of_the_configuration_apply_in_the_editor(vscode, tmp_path):
    (tmp_path / ".packgate.toml").write_text('profile = "ov2"\n[per-file-ignores]\n"vendor/**" = ["PG00"]\n'
                                            '"legacy.sh" = ["missing-companion"]\n')
    vendored = tmp_path / "vendor" / "x" / "run.sh"
    vendored.parent.mkdir(parents=True)
    vendored.write_text(VQA_SCRIPT)
    legacy = tmp_path / "legacy.sh"
    legacy.write_text(VQA_SCRIPT)
    own = tmp_path / "train.sh"
    own.write_text(VQA_SCRIPT)
    assert await diagnostics(vscode, open_doc(vscode, VQA_SCRIPT, uri=vendored.as_uri()), 1) == []
    assert codes(await diagnostics(vscode, open_doc(vscode, VQA_SCRIPT, uri=legacy.as_uri()), 1)) == ["PG002"]
    assert sorted(codes(await diagnostics(vscode, open_doc(vscode, VQA_SCRIPT, uri=own.as_uri()), 1))) == \
        ["PG001", "PG002"]


async def test_the_editor_sends_prefixes_extend_select_and_per_file_ignores(vscode, tmp_path):
    script = tmp_path / "train.sh"
    script.write_text(VQA_SCRIPT)
    uri = open_doc(vscode, VQA_SCRIPT, uri=script.as_uri())
    await diagnostics(vscode, uri, 1)
    try:
        await reconfigure(vscode, {"packgate": {"profile": "ov2", "select": ["pg001"],
                                                "extendSelect": ["PG00"], "ignore": ["PG002"]}}, uri)
        # the more specific selector wins: PG002 ignored by its code although PG00 selects it
        assert codes(vscode.published[uri][-1].diagnostics) == ["PG001"]
        await reconfigure(vscode, {"packgate": {"profile": "ov2", "select": ["ALL"],
                                                "perFileIgnores": {"**/train.sh": ["PG001"]}}}, uri)
        assert codes(vscode.published[uri][-1].diagnostics) == ["PG002"]
    finally:
        await reconfigure(vscode, {"packgate": {}})
