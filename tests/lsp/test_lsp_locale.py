"""The client's locale (initialize's `locale`) decides the language of messages, quick-fix titles
and inlay hints when `packgate.lang` is set nowhere: `zh*` Chinese, anything else English, both
where the client sends none. The hover keeps both languages unless `lang` is set; a `lang` set in
the editor's settings or in a configuration file wins over the locale. Every client capability
set the suites use (VS Code push, Neovim 0.11 push, Neovim with refresh: pull)."""

from __future__ import annotations

import asyncio
import re

import pytest
from lsprotocol import types

from lsp_helpers import (CJK, CLIENTS, capabilities, code_actions, diagnostics, hover, open_doc, position_of,
                         pulls, push_count, pushed, session)

pytestmark = pytest.mark.asyncio(loop_scope="session")

LEAK = "export OFFLINE_PACKING_BMR=1\ntorchrun aiak_training_llm/train.py --micro-batch-size 1\n"
# English words of the texts under test (a Chinese text keeps identifiers and `packed`, not these)
ENGLISH = re.compile(r"\b(the|is|not|for|this|after|off|instead|leakage|file|command|all|safe|problems|reads?)\b", re.I)


def lang_of(text: str) -> str | None:
    """Which languages a text is written in: en, zh, both (None: neither, e.g. only identifiers)."""
    zh, en = CJK.search(text) is not None, ENGLISH.search(text) is not None
    return "both" if zh and en else "zh" if zh else "en" if en else None


async def texts(client, uri: str) -> dict[str, list[str]]:
    """The message of the first diagnostic, its quick-fix titles, the inlay hint labels and the hover."""
    diags = await diagnostics(client, uri, 1)
    assert diags, uri
    actions = await code_actions(client, uri, diags[0].range, diags[:1])
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0))))
    at = position_of(LEAK, LEAK.index("OFFLINE_PACKING_BMR") + 2, client.encoding)
    shown = await hover(client, uri, at.line, at.character)
    assert actions and hints and shown is not None
    return {"message": [diags[0].message], "fixes": [a.title for a in actions],
            "hints": [h.label for h in hints], "hover": [shown.contents.value]}


@pytest.mark.parametrize("name", CLIENTS)
@pytest.mark.parametrize("locale, lang", [("zh-CN", "zh"), ("zh-tw", "zh"), ("en-US", "en"), ("de", "en"), (None, "both")])
async def test_messages_fixes_and_hints_follow_the_client_locale(name, locale, lang):
    async with session(capabilities(name), locale=locale) as client:
        got = await texts(client, open_doc(client, LEAK))
    for kind in ("message", "fixes", "hints"):
        assert [lang_of(t) for t in got[kind]] == [lang] * len(got[kind]), (kind, got[kind])
    assert lang_of(got["hover"][0]) == "both", got["hover"]  # the truth table stays bilingual
    if lang == "both":  # one language per line, not joined mid-sentence
        assert [lang_of(line) for line in got["message"][0].split("\n")] == ["en", "zh"], got["message"]


@pytest.mark.parametrize("name", CLIENTS)
async def test_a_lang_in_the_editor_settings_wins_over_the_locale(name):
    async with session(capabilities(name), {"packgate": {"lang": "en"}}, locale="zh-CN") as client:
        got = await texts(client, open_doc(client, LEAK))
    assert {lang_of(t) for kind in got for t in got[kind]} == {"en"}, got


@pytest.mark.parametrize("name", CLIENTS)
async def test_a_lang_in_a_configuration_file_wins_over_the_locale(name, tmp_path):
    (tmp_path / ".packgate.toml").write_text('lang = "zh"\n', encoding="utf-8")
    script = tmp_path / "train.sh"
    script.write_text(LEAK, encoding="utf-8")
    async with session(capabilities(name), locale="en-US") as client:
        got = await texts(client, open_doc(client, LEAK, uri=script.as_uri()))
    assert {lang_of(t) for kind in got for t in got[kind]} == {"zh"}, got


@pytest.mark.parametrize("name", CLIENTS)
async def test_lang_both_set_after_start_wins_over_the_locale(name):
    async with session(capabilities(name), locale="zh-CN") as client:
        uri = open_doc(client, LEAK)
        assert lang_of((await diagnostics(client, uri, 1))[0].message) == "zh"
        seen = push_count(client, uri)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"packgate": {"lang": "both"}}))
        if pulls(client):
            for _ in range(100):  # the notification's handler may still be running
                message = (await diagnostics(client, uri))[0].message
                if lang_of(message) == "both":
                    break
                await asyncio.sleep(0.02)
        else:
            message = (await pushed(client, uri, after=seen))[0].message
        assert lang_of(message) == "both", message
