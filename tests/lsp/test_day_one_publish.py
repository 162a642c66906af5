"""The first diagnostics already follow the client's settings, and the editor shows what
`packgate check` reports besides findings (a directive that is not one, CRLF line ends).

A client that answers workspace/configuration gets its settings asked for in `initialized`;
a document opened right after must not be published with the defaults first (findings
`select` turns off, in English under `lang = "zh"`) and replaced a moment later.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator

import pytest
from lsprotocol import types

from lsp_helpers import (
    CJK, PULLING, capabilities, code_actions, codes, config, diagnostics, edits_of, encoding_of, init_params,
    open_doc, position_of, pulled, push_count, pushed, apply_edits,
)
from packgate.core.engine import analyze

pytestmark = pytest.mark.asyncio(loop_scope="session")

# PG001 (BMR on alone) and PG002 (VQA is dead under ov2)
SCRIPT = ("export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKING_BMR=1\n"
          "torchrun aiak_training_llm/train.py --micro-batch-size 1\n")
SETTINGS = {"lang": "zh", "select": ["PG002"], "profile": "ov2"}


@contextlib.asynccontextmanager
async def configured(caps: types.ClientCapabilities, section: dict | None = None,
                     options: Any = None) -> AsyncIterator[Any]:
    """A fresh server whose client holds `section` as its `packgate` settings from the start
    (answered on workspace/configuration), as an editor with a settings file does."""
    client = await config().start()
    try:
        if section is not None:
            client.set_configuration(section, section="packgate")
        result = await client.initialize_session(init_params(caps, options))
        client.encoding = encoding_of(client, result)
        client.server_capabilities = result.capabilities
        yield client
        await client.shutdown_session()
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()
        await client.stop()


def assert_respects_settings(diags: list[types.Diagnostic]) -> None:
    assert codes(diags) == ["PG002"], codes(diags)  # select: PG001 never shows
    assert CJK.search(diags[0].message), diags[0].message  # lang = zh


@pytest.mark.parametrize("editor", ["visual_studio_code", "neovim"])
async def test_the_first_push_follows_the_settings_pulled_by_workspace_configuration(editor):
    async with configured(capabilities(editor), SETTINGS) as client:
        uri = open_doc(client, SCRIPT)  # at once: before the server has the client's answer
        first = await pushed(client, uri, 1)
        assert_respects_settings(first)
        await asyncio.sleep(0.3)  # nothing replaces it: the defaults were never published
        assert push_count(client, uri) == 1, [codes(p.diagnostics) for p in client.published[uri]]


async def test_the_first_push_follows_initialization_options():
    async with configured(capabilities("visual_studio_code"), None, {"packgate": SETTINGS}) as client:
        uri = open_doc(client, SCRIPT)
        assert_respects_settings(await pushed(client, uri, 1))
        await asyncio.sleep(0.3)
        assert push_count(client, uri) == 1


async def test_the_first_pull_follows_the_settings():
    async with configured(capabilities(PULLING), SETTINGS) as client:
        uri = open_doc(client, SCRIPT)
        assert_respects_settings(await pulled(client, uri))


async def test_a_client_with_no_packgate_settings_gets_the_defaults():
    """A client that answers workspace/configuration with nothing: the defaults, published
    once its answer is in."""
    async with configured(capabilities("visual_studio_code")) as client:
        uri = open_doc(client, SCRIPT)
        assert {"PG001", "PG002"} <= set(codes(await pushed(client, uri, 1)))


# -- what the CLI reports as problems, the editor shows as warnings ------------------------------

MALFORMED = "echo start\n# packgate: disable=PG001\n" + SCRIPT


async def test_a_directive_that_is_not_one_is_a_warning_in_the_editor(client):
    uri = open_doc(client, MALFORMED)
    diags = await diagnostics(client, uri, 1)
    notes = [d for d in diags if d.code is None]
    assert len(notes) == 1, diags
    note = notes[0]
    assert note.severity == types.DiagnosticSeverity.Warning and note.source == "packgate"
    assert "# packgate disable=PG001" in note.message  # what was meant
    assert note.range.start == types.Position(line=1, character=0)
    assert "PG001" in codes(diags)  # it disabled nothing
    # the CLI's problem sits at the same place
    [notice] = analyze(MALFORMED).notices
    assert analyze(MALFORMED).source.user_position(notice.start) == (2, 1)


async def test_a_crlf_file_gets_one_warning_and_a_convert_to_lf_action(client):
    text = "#!/bin/bash\r\n# 说明 😀\r\nexport OFFLINE_PACKING_BMR=1\r\n" \
           "torchrun aiak_training_llm/train.py \\\r\n  --micro-batch-size 1\r\n"
    uri = open_doc(client, text)
    diags = await diagnostics(client, uri, 1)
    notes = [d for d in diags if d.code is None]
    assert len(notes) == 1 and "CRLF" in notes[0].message, diags
    assert notes[0].range.start == types.Position(line=0, character=0)
    assert notes[0].range.end == position_of(text, text.index("\r"), client.encoding)
    assert [d.code for d in diags if d.code] == [f.code for f in analyze(text).findings]  # unchanged
    actions = await code_actions(client, uri, notes[0].range, [notes[0]],
                                 only=[types.CodeActionKind.QuickFix])
    to_lf = [a for a in actions if "LF" in a.title]
    assert len(to_lf) == 1, [a.title for a in actions]
    assert apply_edits(text, edits_of(to_lf[0], uri), client.encoding) == text.replace("\r\n", "\n")
