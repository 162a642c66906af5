"""Client-side helpers for the end-to-end LSP tests.

Position arithmetic here is written independently of packgate.core.text on purpose: the
tests check the server's conversions against a second implementation, not against itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import re
import sys
from pathlib import Path
from typing import Any, AsyncIterator

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "server") not in sys.path:  # the tests also read the core directly, installed or not
    sys.path.insert(0, str(ROOT / "server"))
SERVER_COMMAND = [sys.executable, "-m", "packgate", "lsp"]
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
# VS Code 1.65 (push, utf-16), Neovim 0.11 (can pull, but takes no diagnostic refresh: pushed to,
# utf-8) and that Neovim declaring the refresh as well, as newer clients do (pulls, utf-8)
PULLING = "neovim+refresh"
CLIENTS = ("visual_studio_code", "neovim", PULLING)
TIMEOUT = 10.0
CJK = re.compile(r"[\u4e00-\u9fff]")


def server_env() -> dict[str, str]:
    """The test process' environment with the source tree importable (works without an install)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "server"), env.get("PYTHONPATH", "")) if p)
    return env


def make_client() -> LanguageClient:
    """pytest-lsp's client, also recording every publishDiagnostics (with its version) and registration."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}  # type: ignore[attr-defined]

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.setdefault(params.uri, []).append(params)  # type: ignore[attr-defined]

    client.registrations = []  # type: ignore[attr-defined]

    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    client.inlay_refreshes = 0  # type: ignore[attr-defined]

    def inlay_refresh(client: LanguageClient, params: None) -> None:
        client.inlay_refreshes += 1  # type: ignore[attr-defined]

    client.partial_results = {}  # type: ignore[attr-defined]  # token -> the partial results' values

    def progress(client: LanguageClient, params: types.ProgressParams) -> None:
        if isinstance(params.value, dict) and "kind" not in params.value:  # a partial result
            client.partial_results.setdefault(params.token, []).append(params.value)  # type: ignore[attr-defined]
        else:
            DEFAULT_CLIENT_FEATURES[types.PROGRESS](client, params)

    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, PUBLISH: publish,
                                   types.CLIENT_REGISTER_CAPABILITY: register,
                                   types.WORKSPACE_INLAY_HINT_REFRESH: inlay_refresh,
                                   types.PROGRESS: progress})
    return client


def config(command: list[str] | None = None, env: dict[str, str] | None = None) -> ClientServerConfig:
    """How the tests start the server: the real command, the source tree importable (env: more
    variables for the server)."""
    return ClientServerConfig(server_command=command or SERVER_COMMAND, client_factory=make_client,
                              server_env={**server_env(), **(env or {})})


@contextlib.asynccontextmanager
async def session(caps: types.ClientCapabilities, options: Any = None,
                  command: list[str] | None = None, folders: list[Path] | None = None,
                  locale: str | None = None, env: dict[str, str] | None = None) -> AsyncIterator[LanguageClient]:
    """A fresh server for tests that change its settings or break it on purpose (or need
    workspace folders, a client locale, or variables in the server's environment)."""
    lsp_client = await config(command, env).start()
    try:
        result = await lsp_client.initialize_session(init_params(caps, options, folders, locale))
        lsp_client.encoding = encoding_of(lsp_client, result)  # type: ignore[attr-defined]
        lsp_client.server_capabilities = result.capabilities  # type: ignore[attr-defined]
        yield lsp_client
        await lsp_client.shutdown_session()
    finally:
        # After a failure there was no shutdown/exit: end the server so stop() does not wait forever.
        if lsp_client._server is not None and lsp_client._server.returncode is None:
            lsp_client._server.kill()
        await lsp_client.stop()


def capabilities(name: str, **tweaks: Any) -> types.ClientCapabilities:
    """A capability set shipped with pytest-lsp, optionally tweaked (`a__b__c=value` sets caps.a.b.c)."""
    if name == PULLING:
        caps = copy.deepcopy(client_capabilities("neovim"))
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    else:
        caps = copy.deepcopy(client_capabilities(name))
    for path, value in tweaks.items():
        *parents, last = path.split("__")
        target = caps
        for part in parents:
            child = getattr(target, part)
            if child is None:
                raise AttributeError(path)
            target = child
        setattr(target, last, value)
    return caps


def init_params(caps: types.ClientCapabilities, options: Any = None,
                folders: list[Path] | None = None, locale: str | None = None) -> types.InitializeParams:
    """InitializeParams for a capability set, optional initializationOptions, workspace folders
    and client locale (none by default, as pytest-lsp's recorded clients send none)."""
    workspace = [types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders] if folders else None
    return types.InitializeParams(capabilities=caps, initialization_options=options, locale=locale,
                                  root_uri=folders[0].as_uri() if folders else None, workspace_folders=workspace)


def encoding_of(client: LanguageClient, result: types.InitializeResult) -> str:
    """The position encoding the server chose."""
    enc = result.capabilities.position_encoding or "utf-16"
    return getattr(enc, "value", enc)


def pulls(client: LanguageClient) -> bool:
    """Whether this client pulls diagnostics: the server offered them (diagnosticProvider)."""
    return client.server_capabilities.diagnostic_provider is not None  # type: ignore[attr-defined]


# -- documents ---------------------------------------------------------------------------

_counter = iter(range(1, 10**9))


def new_uri(name: str = "train") -> str:
    """A fresh untitled-style file URI that exists nowhere on disk (no config file above it)."""
    return f"file:///packgate-lsp-tests/{name}-{next(_counter)}.sh"


def open_doc(client: LanguageClient, text: str, uri: str | None = None, version: int = 1) -> str:
    """didOpen a shell document and return its URI."""
    uri = uri or new_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=version, text=text)))
    return uri


def change_doc(client: LanguageClient, uri: str, version: int, changes: list[Any]) -> None:
    """didChange with the given content changes."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=changes))


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    """didChange replacing the whole text."""
    change_doc(client, uri, version, [types.TextDocumentContentChangeWholeDocument(text=text)])


async def wait_until(predicate, timeout: float = TIMEOUT) -> None:
    """Poll the client's state until predicate() holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.005)


async def pushed(client: LanguageClient, uri: str, version: int | None = None, after: int = 0) -> list[types.Diagnostic]:
    """The diagnostics pushed for uri (at that version, after `after` earlier pushes)."""
    def ready() -> bool:
        got = client.published.get(uri, [])  # type: ignore[attr-defined]
        return len(got) > after and (version is None or got[-1].version == version)
    await wait_until(ready)
    return list(client.published[uri][-1].diagnostics)  # type: ignore[attr-defined]


async def pulled(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The diagnostics of uri by textDocument/diagnostic."""
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), identifier="packgate"))
    assert report.kind == "full"
    return list(report.items)


async def diagnostics(client: LanguageClient, uri: str, version: int | None = None, after: int = 0) -> list[types.Diagnostic]:
    """The current diagnostics of uri, whichever way this client receives them."""
    if pulls(client):
        return await pulled(client, uri)
    return await pushed(client, uri, version, after)


def push_count(client: LanguageClient, uri: str) -> int:
    """How many publishDiagnostics the client has received for uri."""
    return len(client.published.get(uri, []))  # type: ignore[attr-defined]


async def hover(client: LanguageClient, uri: str, line: int, character: int) -> types.Hover | None:
    """textDocument/hover."""
    return await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character)))


async def code_actions(client: LanguageClient, uri: str, rng: types.Range,
                       diags: list[types.Diagnostic], only: list[str] | None = None) -> list[types.CodeAction]:
    """textDocument/codeAction."""
    result = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=diags, only=only)))
    return list(result or [])


# -- independent position arithmetic -----------------------------------------------------

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def lines_of(text: str) -> list[str]:
    """Lines with their endings, broken only at \\n, \\r\\n and \\r (as LSP says)."""
    out = [m.group() for m in _LINE.finditer(text)]
    if out and out[-1] == "":
        out.pop()
    if not out or out[-1].endswith(("\n", "\r")):
        out.append("")
    return out


def _width(ch: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(ch.encode("utf-8"))
    if encoding == "utf-16":
        return len(ch.encode("utf-16-le")) // 2
    return 1


def index_of(text: str, line: int, character: int, encoding: str) -> int:
    """(line, character in encoding units) -> str index, as a client computes it."""
    rows = lines_of(text)
    base = sum(len(r) for r in rows[:line])
    row = rows[line].rstrip("\r\n")
    units = 0
    for i, ch in enumerate(row):
        if units >= character:
            return base + i
        units += _width(ch, encoding)
    return base + len(row)


def position_of(text: str, index: int, encoding: str) -> types.Position:
    """str index -> LSP position in encoding units."""
    rows = lines_of(text)
    start = 0
    for line, row in enumerate(rows):
        if index < start + len(row) or line == len(rows) - 1:
            prefix = text[start:min(index, start + len(row.rstrip("\r\n")))]
            return types.Position(line=line, character=sum(_width(ch, encoding) for ch in prefix))
        start += len(row)
    raise AssertionError("unreachable")


def text_in(text: str, rng: types.Range, encoding: str) -> str:
    """The text a range covers."""
    return text[index_of(text, rng.start.line, rng.start.character, encoding):
                index_of(text, rng.end.line, rng.end.character, encoding)]


def apply_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    """Apply simultaneous TextEdits as an editor does (ranges refer to the original text)."""
    spans = sorted(((index_of(text, e.range.start.line, e.range.start.character, encoding),
                     index_of(text, e.range.end.line, e.range.end.character, encoding), e.new_text)
                    for e in edits), key=lambda s: (s[0], s[1]))
    out, pos = [], 0
    for start, end, new in spans:
        assert start >= pos, "overlapping edits"
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    """The TextEdits of a code action's workspace edit for uri (changes or documentChanges)."""
    edit = action.edit
    assert edit is not None, action
    if edit.document_changes:
        out: list[types.TextEdit] = []
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.uri == uri
            out += list(change.edits)
        return out
    assert edit.changes is not None
    return list(edit.changes[uri])


def english(value: str) -> bool:
    """Whether a text has English prose in it (not just identifiers)."""
    return re.search(r"\b(the|is|on|off|default|reads?)\b", value, re.I) is not None


def codes(diags: list[types.Diagnostic]) -> list[str]:
    """The diagnostic codes, in order."""
    return [str(d.code) for d in diags]
