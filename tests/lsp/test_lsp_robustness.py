"""Bad input over LSP: unknown documents, positions past the end, cancellation, malformed
messages and exceptions in handlers all get an answer, and the server stays alive."""

from __future__ import annotations

import asyncio
import json
import sys
from concurrent.futures import Future
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from lsp_helpers import (
    PULLING, capabilities, code_actions, codes, diagnostics, hover, new_uri, open_doc, pulls, replace_all, session,
    wait_until,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
BAD = "export OFFLINE_PACKING_BMR=1\n" + LAUNCH
FAULTY = [sys.executable, str(Path(__file__).with_name("faulty_server.py"))]


async def alive(client) -> None:
    """The server still analyses and answers."""
    uri = open_doc(client, BAD)
    assert "PG001" in codes(await diagnostics(client, uri, 1))


def far() -> types.Range:
    return types.Range(start=types.Position(line=10_000, character=5), end=types.Position(line=20_000, character=9))


async def test_unknown_and_closed_documents(client):
    ghost = new_uri("never-opened")
    assert await hover(client, ghost, 0, 0) is None
    assert await code_actions(client, ghost, far(), []) == []
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=ghost)))
    assert report.kind == "full" and not report.items
    replace_all(client, ghost, 7, "echo changed\n")  # didChange for a document never opened
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=ghost)))
    uri = open_doc(client, BAD)
    await diagnostics(client, uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await hover(client, uri, 0, 10) is None  # closed: not read back from disk
    await alive(client)


async def test_positions_past_the_end(client):
    uri = open_doc(client, BAD)
    await diagnostics(client, uri, 1)
    assert await hover(client, uri, 10_000, 10_000) is None
    await hover(client, uri, 0, 10_000)  # clamped to the line end: any answer will do
    actions = await code_actions(client, uri, far(), [])
    assert all(a.kind in (types.CodeActionKind.QuickFix, "source.fixAll.packgate") for a in actions)
    # An edit whose range lies past the end appends, as LSP clamps it.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=far(), text="# tail\n")]))
    await diagnostics(client, uri, 2)
    await alive(client)


async def test_cancelled_request_is_answered(client):
    uri = open_doc(client, BAD)
    await diagnostics(client, uri, 1)
    params = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                               position=types.Position(line=0, character=10))
    future = client.protocol.send_request(types.TEXT_DOCUMENT_HOVER, params, msg_id="cancel-me")
    client.cancel_request(types.CancelParams(id="cancel-me"))
    try:
        result = await asyncio.wait_for(asyncio.wrap_future(future), 10)
        assert result is None or isinstance(result, types.Hover)
    except JsonRpcException:
        pass  # RequestCancelled is a correct answer too
    await alive(client)


def send_raw(client, payload: bytes) -> None:
    client.protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(payload) + payload)


async def test_malformed_messages(client):
    # Params that do not match the method's type: an error answer, not silence.
    reply: Future = Future()
    client.protocol._request_futures["malformed-1"] = reply
    send_raw(client, json.dumps({"jsonrpc": "2.0", "id": "malformed-1", "method": "textDocument/hover",
                                 "params": {"textDocument": 42, "position": "nowhere"}}).encode())
    with pytest.raises(JsonRpcException):
        await asyncio.wait_for(asyncio.wrap_future(reply), 10)
    send_raw(client, b"{this is not json")
    send_raw(client, json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}}).encode())
    with pytest.raises(JsonRpcException):  # an unknown method
        await client.protocol.send_request_async("packgate/noSuchMethod", {})
    await alive(client)


async def test_exception_in_a_handler_is_logged_and_answered():
    caps = capabilities("visual_studio_code")
    async with session(caps, command=FAULTY) as client:
        uri = open_doc(client, "# PACKGATE_TEST_RAISE\n" + BAD)
        assert await hover(client, uri, 1, 10) is None
        assert await code_actions(client, uri, far(), []) == []
        await wait_until(lambda: any("injected failure" in m.message for m in client.log_messages))
        errors = [m for m in client.log_messages if m.type == types.MessageType.Error]
        assert errors and "Traceback" in errors[0].message
        assert client.messages == []  # logged, not popped up
        await alive(client)


async def test_exception_in_a_pull_handler_is_answered():
    async with session(capabilities(PULLING), command=FAULTY) as client:
        assert pulls(client)
        uri = open_doc(client, "# PACKGATE_TEST_RAISE\n" + BAD)
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        assert report.kind == "full" and not report.items
        await alive(client)
