"""pygls' protocol, hardened: a client's mistakes get an answer and one log line, never a traceback.

``PackgateProtocol`` overrides only what pygls' public API cannot reach:

- ``structure_message``: a request whose params do not fit its method, or that is not a
  JSON-RPC Request object at all, is answered with an error instead of silence;
- ``handle_message``: requests before ``initialize`` get -32002, after ``shutdown`` -32600 (LSP);
- ``lsp_initialize``: no ``diagnosticProvider`` for a client that could pull diagnostics but
  cannot be told to pull again (it is pushed to instead, convert.pulls);
- ``lsp_exit``: the exit code is kept (pygls exits through ``sys.exit`` inside the event loop);
- ``didChange``: changes are applied with LSP's line breaks (pygls' own splits at form feed and
  U+2028), through the session, which keeps the parse tree in step.
- ``didOpen`` / ``didChange`` / ``didClose``: packgate's handler runs directly, not yielded as
  pygls does it (pygls 2.1 keeps a Future per yielded notification handler forever).

``report_client_error`` is the part of the server's error report that deals with bytes a
client got wrong (not JSON, not UTF-8, params that do not fit).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import (JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcMethodNotFound)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

import packgate.lsp.convert as convert

logger = logging.getLogger("packgate.lsp")
INVALID_REQUEST, SERVER_NOT_INITIALIZED, PARSE_ERROR = -32600, -32002, -32700
ResponseError = types.ResponseError


class ClientMistake(Exception):
    """A message the client got wrong: answered with an error, never logged as ours."""


CLIENT_ERRORS = (ClientMistake, JsonRpcMethodNotFound, JsonRpcInvalidParams, JsonRpcInvalidRequest)


class NoClientTracebacks(logging.Filter):
    """pygls logs every message it cannot read or handle with a traceback; for a client's mistake
    (not JSON, not UTF-8, params that do not fit) one line is written instead (report_client_error),
    and the normal end of a TCP session is not logged at all."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError) + CLIENT_ERRORS):
            return False
        if isinstance(exc, SystemExit):
            # `exit` over TCP: pygls ends the process with sys.exit inside asyncio's connection
            # callback, which asyncio logs as an unhandled exception; it is the normal way out
            return False
        if record.name == "pygls.protocol.json_rpc" and str(record.msg).startswith("Unable to deserialize"):
            # pygls formats the traceback into the message; the request itself is answered -32602
            record.msg, record.args = "a message whose params do not fit its method: answered with an error", ()
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class PackgateProtocol(LanguageServerProtocol):
    """pygls' protocol with packgate's own change application and malformed-request answers."""

    exit_code: int | None = None  # set by `exit`: 0 after shutdown, 1 without (LSP)
    _initialize_seen = False

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """Apply incremental changes with LSP line breaks (pygls' own splits at form feed)."""
        doc = self.workspace.text_documents.get(unquote(params.text_document.uri))
        if doc is None:
            self._server.log(f"didChange for a document that is not open: {params.text_document.uri}", "warning")
            return
        encoding = convert.encoding_name(self.workspace.position_encoding)
        text = doc.source
        for change in params.content_changes:
            source = self._server.session.source(doc.uri, text)
            start, end = convert.change_offsets(source, change, encoding)
            text = self._server.session.splice(doc.uri, source, start, end, change.text)
        doc.apply_change(types.TextDocumentContentChangeWholeDocument(text=text))
        doc.version = params.text_document.version
        self._notify_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        """Put the document in the workspace, then run packgate's handler (as pygls does, no generator)."""
        self.workspace.put_text_document(params.text_document)
        self._notify_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        """Remove the document from the workspace, then run packgate's handler (no generator)."""
        self.workspace.remove_text_document(params.text_document.uri)
        self._notify_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def _notify_handler(self, method: str, params: Any) -> None:
        """Run the handler registered for a notification, here and now.

        Not by yielding it, as pygls' own document handlers do: pygls 2.1 files a generator
        handler's future under a fresh id in its table of running requests and, for a
        notification, never takes it out again, so every keystroke kept a Future with its lock
        and condition (about 2-3 KiB: the long-session memory growth of issue 19)."""
        handler = self.fm.features.get(method)
        if handler is None:
            return
        result = handler(params)
        if asyncio.iscoroutine(result):
            asyncio.ensure_future(result)

    def structure_message(self, data: Any):
        """Answer a request whose params do not parse with an error instead of silence."""
        self._server.last_activity = time.monotonic()
        if isinstance(data, dict) and "jsonrpc" in data:
            method = data.get("method")
            if ("method" in data and not isinstance(method, str)) or \
                    ("id" in data and "method" not in data and "result" not in data and "error" not in data):
                # JSON-RPC 2.0 §5.1: not a valid Request object
                if "id" in data and isinstance(data["id"], (int, str)):
                    self._send_response(data["id"], error=ResponseError(
                        code=INVALID_REQUEST, message="invalid request: a method name (string) is required"))
                raise ClientMistake("invalid request object")
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], error=exc.to_response_error())
            raise ClientMistake(str(exc)) from exc

    def handle_message(self, message: Any):
        """Refuse requests before initialize (-32002) and after shutdown (-32600), as LSP says."""
        if isinstance(message, dict):
            # JSON that is not JSON-RPC (no "jsonrpc": "2.0", e.g. `{}`): pygls leaves it a dict
            if isinstance(message.get("id"), (int, str)):
                self._send_response(message["id"], error=ResponseError(
                    code=INVALID_REQUEST, message='invalid request: not JSON-RPC 2.0 ("jsonrpc": "2.0" is required)'))
            logger.info("client error: a message that is not JSON-RPC 2.0 was dropped")
            return None
        method = getattr(message, "method", None)
        is_request = method is not None and getattr(message, "id", None) is not None
        if method == types.EXIT:
            return super().handle_message(message)
        if self._shutdown:
            if is_request:
                self._send_response(message.id, error=ResponseError(
                    code=INVALID_REQUEST, message="the server has been shut down"))
            return None
        if not self._initialize_seen and method is not None:
            if method != types.INITIALIZE:
                if is_request:
                    self._send_response(message.id, error=ResponseError(
                        code=SERVER_NOT_INITIALIZED, message="the server is not initialized yet"))
                return None  # notifications before initialize are dropped
            self._initialize_seen = True
        return super().handle_message(message)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        """pygls' initialize, without diagnosticProvider for a client that could pull but cannot be
        told to pull again (convert.pulls): it is pushed to, so that a change to a file a script
        sources, or to the settings, reaches it (Neovim 0.11 pulls only when its buffer changes)."""
        result = yield from super().lsp_initialize(params)
        if not convert.pulls(params.capabilities):
            result.capabilities.diagnostic_provider = None
        return result

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args):
        """Remember the exit code (1 when no shutdown came first) before pygls stops the loop."""
        self.exit_code = 0 if self._shutdown else 1
        yield from super().lsp_exit(*args)

    @property
    def was_shut_down(self) -> bool:
        """Whether the client sent `shutdown`."""
        return bool(self._shutdown)


def report_client_error(protocol: LanguageServerProtocol, error: Exception) -> bool:
    """Log a client's mistake in one line (answering -32700 where a request id is readable);
    False when the error is not a client's."""
    if isinstance(error, json.JSONDecodeError):
        # JSON-RPC 2.0 §5.1 would answer with id null, but pygls' and vscode-jsonrpc's clients
        # cannot take a response without an id: a frame that is not JSON is logged and dropped
        logger.warning("dropped a message that is not JSON: %s", error)
        return True
    if isinstance(error, UnicodeDecodeError):
        # the protocol's bodies are UTF-8: a client's bytes, not packgate's fault. A request
        # whose id can still be read gets a parse error, so the client does not wait for it.
        body = bytes(error.object or b"")
        logger.warning("dropped a message that is not UTF-8: byte %d (%r)", error.start,
                       body[error.start:error.start + 1])
        try:
            data = json.loads(body.decode("utf-8", "replace"))
        except ValueError:
            return True
        if isinstance(data, dict) and isinstance(data.get("method"), str) and \
                isinstance(data.get("id"), (int, str)) and not isinstance(data.get("id"), bool):
            protocol._send_response(data["id"], error=ResponseError(
                code=PARSE_ERROR, message=f"parse error: the message is not UTF-8 (byte {error.start})"))
        return True
    if isinstance(error, CLIENT_ERRORS):
        logger.info("client error: %s", error)
        return True
    return False
