"""Configuration over LSP: initializationOptions, workspace/configuration, didChangeConfiguration."""

from __future__ import annotations

import pytest
from lsprotocol import types

from helpers import (
    CJK, capabilities, english, codes, diagnostics, hover, open_doc, position_of, pulled, push_count, pushed,
    session, wait_until,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
VQA_SCRIPT = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH


async def hover_text(client, uri: str, text: str, word: str) -> str:
    p = position_of(text, text.index(word) + 2, client.encoding)
    result = await hover(client, uri, p.line, p.character)
    assert result is not None
    return result.contents.value


def change_config(client, settings) -> None:
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))


async def test_lang_from_init_options_then_payload_then_pulled_configuration():
    async with session(capabilities("visual_studio_code"), {"packgate": {"lang": "zh"}}) as client:
        uri = open_doc(client, VQA_SCRIPT)
        await pushed(client, uri, 1)
        assert CJK.search(await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA"))

        seen = push_count(client, uri)
        change_config(client, {"packgate": {"lang": "en"}})  # settings carried in the notification
        await pushed(client, uri, after=seen)
        assert not CJK.search(await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA"))

        seen = push_count(client, uri)
        client.set_configuration({"lang": "zh"}, section="packgate")
        change_config(client, None)  # VS Code style: the server pulls workspace/configuration
        await pushed(client, uri, after=seen)
        assert CJK.search(await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA"))
        assert CJK.search(client.published[uri][-1].diagnostics[0].message)  # messages follow lang too


async def test_profile_switch_re_diagnoses_pushed_documents():
    async with session(capabilities("visual_studio_code")) as client:
        uri = open_doc(client, VQA_SCRIPT)
        assert "PG002" in codes(await pushed(client, uri, 1))  # ov2: VQA is dead
        seen = push_count(client, uri)
        change_config(client, {"packgate": {"profile": "ov15"}})
        after = await pushed(client, uri, after=seen)
        assert after == [], codes(after)  # ov15: VQA and PACKED_DATA both on


async def test_profile_switch_refreshes_pulled_diagnostics():
    caps = capabilities("neovim")
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    async with session(caps) as client:
        uri = open_doc(client, VQA_SCRIPT)
        assert "PG002" in codes(await pulled(client, uri))
        refreshed = client.diagnostic_refresh_count
        client.set_configuration({"profile": "ov15"}, section="packgate")
        change_config(client, None)
        await wait_until(lambda: client.diagnostic_refresh_count == refreshed + 1)
        assert await pulled(client, uri) == []
        assert push_count(client, uri) == 0  # a pulling client is never pushed to


async def test_no_refresh_request_to_a_client_that_cannot_take_it():
    async with session(capabilities("neovim")) as client:
        uri = open_doc(client, VQA_SCRIPT)
        assert "PG002" in codes(await pulled(client, uri))
        change_config(client, {"packgate": {"profile": "ov15"}})
        # A notification has no answer, but the server handles messages in order.
        assert await pulled(client, uri) == []
        assert client.diagnostic_refresh_count == 0


async def test_invalid_value_falls_back_and_is_shown_once():
    async with session(capabilities("visual_studio_code"), {"packgate": {"lang": "klingon"}}) as client:
        uri = open_doc(client, VQA_SCRIPT)
        await pushed(client, uri, 1)
        value = await hover_text(client, uri, VQA_SCRIPT, "OFFLINE_PACKED_DATA")
        assert CJK.search(value) and english(value)  # the default, both
        for _ in range(2):
            seen = push_count(client, uri)
            change_config(client, {"packgate": {"lang": "klingon", "profile": "ov99"}})
            await pushed(client, uri, after=seen)
        shown = [m.message for m in client.messages]
        assert sum("lang" in m for m in shown) == 1, shown
        assert sum("profile" in m for m in shown) == 1, shown
        assert all(m.type == types.MessageType.Warning for m in client.messages)
        assert "PG002" in codes(client.published[uri][-1].diagnostics)  # profile stayed ov2


async def test_project_config_file_overrides_the_editor(tmp_path):
    (tmp_path / ".packgate.toml").write_text('profile = "ov15"\n')
    script = tmp_path / "train.sh"
    script.write_text(VQA_SCRIPT)
    async with session(capabilities("visual_studio_code"), {"packgate": {"profile": "ov2"}}) as client:
        uri = open_doc(client, VQA_SCRIPT, uri=script.as_uri())
        assert await diagnostics(client, uri, 1) == []
