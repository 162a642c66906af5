"""Configuration over LSP: initializationOptions, workspace/configuration, didChangeConfiguration."""

from __future__ import annotations

import pytest
import pytest_asyncio
from lsprotocol import types

from lsp_helpers import (
    CJK, PULLING, capabilities, codes, diagnostics, english, hover, open_doc, position_of, pulled, pulls, push_count,
    pushed, session, wait_until,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
VQA_SCRIPT = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def vscode():
    """A VS Code client of its own: these tests change the server's settings."""
    async with session(capabilities("visual_studio_code")) as client:
        yield client


async def hover_text(client, uri: str, text: str, word: str) -> str:
    p = position_of(text, text.index(word) + 2, client.encoding)
    result = await hover(client, uri, p.line, p.character)
    assert result is not None
    return result.contents.value


async def reconfigure(client, settings, uri: str | None = None) -> None:
    """didChangeConfiguration; with a pushed-to uri, wait until it has been diagnosed again."""
    seen = push_count(client, uri) if uri else 0
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    if uri:
        await pushed(client, uri, after=seen)


async def test_lang_from_init_options_then_payload_then_pulled_configuration():
    async with session(capabilities("visual_studio_code"), {"packgate": {"lang": "zh"}}) as client:
        uri = open_doc(client, VQA_SCRIPT)
        await pushed(client, uri, 1)
        assert CJK.search(await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA"))

        await reconfigure(client, {"packgate": {"lang": "en"}}, uri)  # settings carried in the notification
        assert not CJK.search(await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA"))

        client.set_configuration({"lang": "zh"}, section="packgate")
        await reconfigure(client, None, uri)  # VS Code style: the server pulls workspace/configuration
        assert CJK.search(await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA"))
        assert CJK.search(client.published[uri][-1].diagnostics[0].message)  # messages follow lang too


async def test_profile_switch_re_diagnoses_pushed_documents(vscode):
    uri = open_doc(vscode, VQA_SCRIPT)
    await pushed(vscode, uri, 1)
    await reconfigure(vscode, {"packgate": {"profile": "ov2"}}, uri)
    assert "PG002" in codes(vscode.published[uri][-1].diagnostics)  # ov2: VQA is dead
    await reconfigure(vscode, {"packgate": {"profile": "ov15"}}, uri)
    assert list(vscode.published[uri][-1].diagnostics) == []  # ov15: VQA and PACKED_DATA both on


async def test_invalid_value_falls_back_and_is_shown_once(vscode):
    uri = open_doc(vscode, VQA_SCRIPT)
    await pushed(vscode, uri, 1)
    for _ in range(2):
        await reconfigure(vscode, {"packgate": {"lang": "klingon", "profile": "ov99"}}, uri)
    value = await hover_text(vscode, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA")
    assert CJK.search(value) and english(value)  # the default: both
    shown = [m.message for m in vscode.messages]
    assert sum("klingon" in m for m in shown) == 1, shown
    assert sum("ov99" in m for m in shown) == 1, shown
    assert all(m.type == types.MessageType.Warning for m in vscode.messages)
    assert "PG002" in codes(vscode.published[uri][-1].diagnostics)  # the profile default (auto -> ov2)


async def test_a_select_naming_no_rule_is_refused_not_obeyed(vscode):
    """A typo in packgate.select would silence every rule: it is shown once and every rule stays on
    (PG0011 names no rule, and never will: codes have three digits)."""
    uri = open_doc(vscode, VQA_SCRIPT)
    await pushed(vscode, uri, 1)
    try:
        for _ in range(2):
            await reconfigure(vscode, {"packgate": {"select": ["PG0011"], "profile": "ov2"}}, uri)
        assert "PG002" in codes(vscode.published[uri][-1].diagnostics)
        shown = [m.message for m in vscode.messages if "'PG0011'" in m.message]
        assert len(shown) == 1 and "unknown rule 'PG0011' in packgate.select" in shown[0], shown
    finally:
        await reconfigure(vscode, {"packgate": {}})


async def test_project_config_file_overrides_the_editor(vscode, tmp_path):
    (tmp_path / ".packgate.toml").write_text('profile = "ov15"\n')
    script = tmp_path / "train.sh"
    script.write_text(VQA_SCRIPT)
    await reconfigure(vscode, {"packgate": {"profile": "ov2"}})
    uri = open_doc(vscode, VQA_SCRIPT, uri=script.as_uri())
    assert await diagnostics(vscode, uri, 1) == []


async def test_a_broken_project_config_is_shown_once_and_applies_not_at_all(vscode, tmp_path):
    (tmp_path / ".packgate.toml").write_text('profile = "ov15\nselct = 1\n')  # not TOML
    uris = []
    for name in ("a.sh", "b.sh"):
        script = tmp_path / name
        script.write_text(VQA_SCRIPT)
        uris.append(open_doc(vscode, VQA_SCRIPT, uri=script.as_uri()))
    for uri in uris:  # the editor's default profile (auto -> ov2): VQA is dead there
        assert "PG002" in codes(await diagnostics(vscode, uri, 1))
    shown = [m.message for m in vscode.messages if ".packgate.toml" in m.message]
    assert len(shown) == 1 and "not valid TOML" in shown[0] and "line 1" in shown[0], shown
    assert all(m.type == types.MessageType.Warning for m in vscode.messages)


async def test_profile_switch_refreshes_pulled_diagnostics():
    async with session(capabilities(PULLING)) as client:
        assert pulls(client)
        uri = open_doc(client, VQA_SCRIPT)
        assert "PG002" in codes(await pulled(client, uri))
        refreshed = client.diagnostic_refresh_count
        client.set_configuration({"profile": "ov15"}, section="packgate")
        await reconfigure(client, None)
        await wait_until(lambda: client.diagnostic_refresh_count == refreshed + 1)
        assert await pulled(client, uri) == []
        assert push_count(client, uri) == 0  # a pulling client is never pushed to


async def test_a_client_that_takes_no_refresh_is_pushed_the_change():
    """Neovim 0.11 can pull but takes no workspace/diagnostic/refresh: it is offered push instead,
    so a profile switch reaches it as a push, and no refresh request is ever sent to it."""
    async with session(capabilities("neovim")) as client:
        assert client.server_capabilities.diagnostic_provider is None and not pulls(client)
        uri = open_doc(client, VQA_SCRIPT)
        assert "PG002" in codes(await diagnostics(client, uri, 1))
        client.set_configuration({"profile": "ov15"}, section="packgate")
        await reconfigure(client, None)
        await wait_until(lambda: len(client.published.get(uri, [])) >= 2)
        assert list(client.published[uri][-1].diagnostics) == []
        assert client.diagnostic_refresh_count == 0


async def test_project_files_are_watched_and_a_change_re_diagnoses(vscode, tmp_path):
    watchers = [r for r in vscode.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert watchers, vscode.registrations
    globs = {w["globPattern"] for w in watchers[0].register_options["watchers"]}  # plain JSON on this side
    assert {"**/*.py", "**/.packgate.toml", "**/*.sh"} <= globs, globs

    env = tmp_path / "env.sh"
    env.write_text("export OFFLINE_PACKING_BMR=1\n")
    main = tmp_path / "train.sh"
    text = "source ./env.sh\n" + LAUNCH
    main.write_text(text)
    uri = open_doc(vscode, text, uri=main.as_uri())
    assert "PG001" in codes(await pushed(vscode, uri, 1))

    env.write_text("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n")
    seen = push_count(vscode, uri)
    vscode.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=env.as_uri(), type=types.FileChangeType.Changed)]))
    assert "PG001" not in codes(await pushed(vscode, uri, after=seen))

    env.write_text("export OFFLINE_PACKING_BMR=1\n")  # saved from the editor this time
    seen = push_count(vscode, uri)
    vscode.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=env.as_uri())))
    assert "PG001" in codes(await pushed(vscode, uri, after=seen))


async def test_auto_without_training_code_says_once_which_profile_it_assumed(vscode, tmp_path):
    """Issue 18: `auto` finding no code that reads the gates judges as ov2 and says so: once in
    the log, and in the gate's hover (no pop-up: the findings are still worth reading)."""
    from packgate.core import project
    project.invalidate()
    (tmp_path / ".git").mkdir()
    await reconfigure(vscode, {"packgate": {"profile": "auto"}})
    try:
        uris = []
        for name in ("a.sh", "b.sh"):
            script = tmp_path / name
            script.write_text(VQA_SCRIPT)
            uris.append(open_doc(vscode, VQA_SCRIPT, uri=script.as_uri()))
            assert "PG002" in codes(await diagnostics(vscode, uris[-1], 1))
        logged = [m.message for m in vscode.log_messages if f"no Python code below {tmp_path} " in m.message]
        assert len(logged) == 1 and "profile ov2 assumed" in logged[0], logged
        assert not [m for m in vscode.messages if "assumed" in m.message]
        assert "assumed: no Python code below" in await hover_text(vscode, uris[0], VQA_SCRIPT, "OFFLINE_PACKED_DATA")
    finally:
        await reconfigure(vscode, {"packgate": {}})
