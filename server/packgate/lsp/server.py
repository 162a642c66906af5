"""packgate's language server: short pygls 2.x handlers that ask packgate.core and convert the answer.

Each handler finds the document, takes the cached analysis of its version from the session,
and hands the result to ``convert``. Diagnostics are pushed (``publishDiagnostics``) to
clients that cannot pull and answered on ``textDocument/diagnostic`` for clients that can,
never both. An exception in a handler is logged to the client (``window/logMessage``) and
answered with an empty result: the server never dies of one.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import logging
import sys
import traceback
from typing import Any, Callable
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import TextDocument

from packgate.core.source import Source
from packgate.lsp import convert
from packgate.lsp.convert import ClientFeatures
from packgate.lsp.session import Entry, Session, path_of, warm_up

logger = logging.getLogger("packgate.lsp")
CONFIG_FILES = (".packgate.toml", "pyproject.toml")
# What can change an analysis besides the document: the project's Python code (profile auto),
# its packgate configuration, and the scripts a launcher sources.
WATCHED = ("**/*.py", "**/pyproject.toml", "**/.packgate.toml", "**/*.sh", "**/*.bash", "**/*.env")
LAUNCH_SUMMARIES = "packgate/launchSummaries"


def _version() -> str:
    return getattr(sys.modules.get("packgate"), "__version__", "0.0.0")


class PackgateProtocol(LanguageServerProtocol):
    """pygls' protocol with packgate's own change application and malformed-request answers."""

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
            source = Source(text)
            start, end = convert.change_offsets(source, change, encoding)
            text = self._server.session.splice(doc.uri, source, start, end, change.text)
        doc.apply_change(types.TextDocumentContentChangeWholeDocument(text=text))
        doc.version = params.text_document.version
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    def structure_message(self, data: Any):
        """Answer a request whose params do not parse with an error instead of silence."""
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], error=exc.to_response_error())
            raise


class PackgateServer(LanguageServer):
    """The server object: client features, the session and the helpers handlers share."""

    def __init__(self) -> None:
        super().__init__("packgate", _version(), protocol_cls=PackgateProtocol)
        self.session = Session()
        self.client = ClientFeatures()
        self.pending: list[str] = []

    # -- messages to the user --

    def log(self, message: str, level: str = "info") -> None:
        """Write to the client's log (window/logMessage)."""
        try:
            self.window_log_message(convert.log_params(message, level))
        except Exception:  # no transport yet, or it is gone
            logger.log(logging.WARNING, "%s", message)

    def say(self, problems: list[str]) -> None:
        """Show each settings problem once (window/showMessage)."""
        for problem in self.session.unseen(problems):
            self.window_show_message(convert.show_params(problem, "warning"))
            self.log(problem, "warning")

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls' errors go to the client's log, not to a pop-up."""
        self.log(f"packgate: internal error ({getattr(source, '__name__', source)}): {error!r}", "error")

    # -- documents and analyses --

    def document(self, uri: str) -> TextDocument | None:
        """The open document at uri, or None (unknown and closed documents are not read from disk)."""
        return self.workspace.text_documents.get(unquote(uri))

    def entry(self, uri: str, revalidate: bool = False) -> Entry | None:
        """The analysis of the open document's current version (cached per version)."""
        doc = self.document(uri)
        if doc is None:
            return None
        entry, problems = self.session.analysis(doc.uri, doc.version, doc.source, revalidate=revalidate)
        if entry.analysis.note:
            problems.append(f"{doc.uri}: {entry.analysis.note}")
        self.say(problems)
        return entry

    def diagnostics(self, uri: str, entry: Entry) -> list[types.Diagnostic]:
        """The entry's findings as LSP diagnostics (converted once per entry)."""
        if entry.rendered is None:
            entry.rendered = convert.to_diagnostics(entry.analysis.findings, entry.analysis.source, uri,
                                                    entry.version, self.client, entry.analysis.source_for)
        return entry.rendered

    def publish(self, uri: str, revalidate: bool = False) -> None:
        """Push the document's diagnostics with its version (push clients only)."""
        doc = self.document(uri)
        if doc is None or self.client.pull_diagnostics:
            return
        entry = self.entry(uri, revalidate)
        if entry is not None:
            self.text_document_publish_diagnostics(
                convert.publish_params(doc.uri, doc.version, self.diagnostics(doc.uri, entry)))

    def publish_soon(self, uri: str) -> None:
        """Push after a change; a slow document waits for the typing to pause, and stale versions are skipped."""
        doc = self.document(uri)
        if doc is None or self.client.pull_diagnostics:
            return
        version = doc.version

        def run() -> None:
            current = self.document(uri)
            if current is not None and current.version == version:
                try:
                    self.publish(uri)
                except Exception:
                    self.log(f"packgate: publishing {uri} failed\n{traceback.format_exc()}", "error")

        asyncio.get_running_loop().call_later(self.session.pause_before(doc.uri), run)

    def rediagnose(self) -> None:
        """After a settings or project change: push again, or ask pulling clients to pull again."""
        if self.client.pull_diagnostics:
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
            return
        for doc in list(self.workspace.text_documents.values()):
            self.publish(doc.uri)

    async def pull_configuration(self) -> Any:
        """The client's `packgate` section via workspace/configuration (None if it has none)."""
        try:
            result = await self.workspace_configuration_async(convert.configuration_params())
        except Exception as exc:
            self.log(f"workspace/configuration failed: {exc!r}", "warning")
            return None
        return result[0] if result else None


def guarded(fallback: Callable[[], Any] = lambda: None):
    """Log a handler's exception to the client and answer with fallback() instead of failing."""

    def wrap(fn):
        def report(ls: PackgateServer) -> Any:
            ls.log(f"packgate: {fn.__name__} failed\n{traceback.format_exc()}", "error")
            return fallback()

        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def run_async(ls: PackgateServer, params: Any) -> Any:
                try:
                    return await fn(ls, params)
                except Exception:
                    return report(ls)
            return run_async

        @functools.wraps(fn)
        def run(ls: PackgateServer, params: Any) -> Any:
            try:
                return fn(ls, params)
            except Exception:
                return report(ls)
        return run

    return wrap


# -- handlers ---------------------------------------------------------------------------


@guarded()
def initialize(ls: PackgateServer, params: types.InitializeParams) -> None:
    """Read the client's capabilities and the settings in initializationOptions."""
    ls.client = ClientFeatures.from_capabilities(params.capabilities, ls.workspace.position_encoding)
    ls.pending = ls.session.set_init_options(params.initialization_options)


@guarded()
async def initialized(ls: PackgateServer, params: types.InitializedParams) -> None:
    """Show early settings problems, watch the project's files, pull the editor settings."""
    ls.thread_pool.submit(warm_up)
    ls.say(ls.pending)
    if ls.client.watch_files:
        try:
            await ls.client_register_capability_async(convert.watchers_registration(WATCHED))
        except Exception as exc:  # a client that declines: open and save still revalidate
            ls.log(f"file watching not registered: {exc!r}", "warning")
    if ls.client.configuration:
        before = ls.session.editor
        ls.say(ls.session.set_editor_section(await ls.pull_configuration()))
        if ls.session.editor != before:  # documents opened meanwhile used the older settings
            ls.rediagnose()


@guarded()
async def did_change_configuration(ls: PackgateServer, params: types.DidChangeConfigurationParams) -> None:
    """New editor settings: from the payload when it carries them, else pulled; then re-diagnose."""
    settings = params.settings
    carries = isinstance(settings, dict) and any(k == "packgate" or k.startswith("packgate.") for k in settings)
    if not carries and ls.client.configuration:
        settings = await ls.pull_configuration()
    ls.say(ls.session.set_editor_section(settings))
    ls.rediagnose()


@guarded()
def did_open(ls: PackgateServer, params: types.DidOpenTextDocumentParams) -> None:
    """Diagnose a newly opened document (re-checking the project's code for `profile = auto`)."""
    uri = params.text_document.uri
    ls.session.forget(uri)  # a reopened document may hold other text under the same version
    if ls.client.pull_diagnostics:
        ls.entry(uri, revalidate=True)  # the client pulls next: have the analysis ready
    else:
        ls.publish(uri, revalidate=True)


@guarded()
def did_change(ls: PackgateServer, params: types.DidChangeTextDocumentParams) -> None:
    """Diagnose the new version (the protocol has already applied the changes)."""
    ls.publish_soon(params.text_document.uri)


@guarded()
def did_save(ls: PackgateServer, params: types.DidSaveTextDocumentParams) -> None:
    """A saved config file, Python file or sourced script can change other documents' analyses."""
    uri = params.text_document.uri
    path = path_of(uri)
    if uri.endswith(CONFIG_FILES + (".py",)) or (path and ls.session.depending_on(path)):
        _project_changed(ls)


@guarded()
def did_change_watched_files(ls: PackgateServer, params: types.DidChangeWatchedFilesParams) -> None:
    """Files changed outside the editor: forget what the analyses derived from the project."""
    if params.changes:
        _project_changed(ls)


def _project_changed(ls: PackgateServer) -> None:
    from packgate.core import project
    project.invalidate()
    ls.session.forget_all()
    ls.rediagnose()


@guarded()
def did_close(ls: PackgateServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document and clear its pushed diagnostics."""
    uri = params.text_document.uri
    ls.session.forget(uri)
    if not ls.client.pull_diagnostics:
        ls.text_document_publish_diagnostics(convert.publish_params(uri, None, []))


@guarded(lambda: convert.full_report([], None))
def document_diagnostic(ls: PackgateServer, params: types.DocumentDiagnosticParams):
    """Pulled diagnostics; `unchanged` when the client already has this result."""
    uri = params.text_document.uri
    entry = ls.entry(uri)
    if entry is None:
        return convert.full_report([], None)
    if params.previous_result_id == entry.result_id:
        return convert.unchanged_report(entry.result_id)
    return convert.full_report(ls.diagnostics(uri, entry), entry.result_id)


@guarded()
def hover(ls: PackgateServer, params: types.HoverParams) -> types.Hover | None:
    """The gate's truth table and what this script's launch sees, in the `lang` setting."""
    entry = ls.entry(params.text_document.uri)
    if entry is None:
        return None
    source = entry.analysis.source
    offset = convert.to_offset(source, params.position, ls.client.encoding)
    found = entry.analysis.hover(offset, lang=entry.settings.lang, markdown=ls.client.markdown)
    return convert.to_hover(*found, source, ls.client) if found else None


@guarded(list)
def code_action(ls: PackgateServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Quick fixes of the diagnostics in range (rule fixes, disable actions) and fixAll."""
    uri, only = params.text_document.uri, params.context.only
    doc, entry = ls.document(uri), ls.entry(uri)
    if doc is None or entry is None:
        return []
    actions: list[types.CodeAction] = []
    if convert.wants_kind(only, types.CodeActionKind.QuickFix.value):
        for sent, fresh in _diagnostics_in(ls, params, doc.version, ls.diagnostics(uri, entry)):
            actions += convert.quick_fixes(fresh, uri, doc.version, ls.client, attach=sent)
    automatic = params.context.trigger_kind == types.CodeActionTriggerKind.Automatic
    if convert.wants_kind(only, convert.FIX_ALL_KIND) and not (automatic and not only):
        # fixAll re-analyses until it converges: only when asked (a source action, or on save)
        fix_all = convert.fix_all_action([ls.session.fix_all(uri, entry)], entry.analysis.source,
                                         uri, doc.version, ls.client)
        actions += [fix_all] if fix_all else []
    return actions


def _diagnostics_in(ls: PackgateServer, params: types.CodeActionParams, version: int | None,
                    current: list[types.Diagnostic]) -> list[tuple[types.Diagnostic, types.Diagnostic]]:
    """(as the client sent it, with current data) for packgate's diagnostics in the request."""
    sent = [d for d in params.context.diagnostics if convert.is_ours(d)] or \
        [d for d in current if convert.range_overlaps(d.range, params.range)]
    pairs = []
    for diag in sent:
        if convert.data_version(diag) == version:
            pairs.append((diag, diag))
        else:  # data from an older version, or none: the same finding in the current analysis
            fresh = next((d for d in current if d.code == diag.code and d.range == diag.range), None)
            pairs += [(diag, fresh)] if fresh is not None else []
    return pairs


@guarded()
def launch_summaries(ls: PackgateServer, params: Any) -> list[dict[str, Any]] | None:
    """`packgate/launchSummaries`: the verdict at each launch, for the VS Code status bar."""
    uri = convert.uri_of(params)
    entry = ls.entry(uri) if uri else None
    if entry is None:
        return None
    return convert.launch_summaries(entry.analysis.launch_summaries, entry.analysis.source, ls.client.encoding)


HANDLERS: tuple[tuple[str, Any, Callable[..., Any]], ...] = (
    (types.INITIALIZE, None, initialize),
    (types.INITIALIZED, None, initialized),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, None, did_change_configuration),
    (types.TEXT_DOCUMENT_DID_OPEN, None, did_open),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
    (types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False), did_save),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, did_change_watched_files),
    (types.TEXT_DOCUMENT_DIAGNOSTIC,
     types.DiagnosticOptions(identifier="packgate", inter_file_dependencies=False, workspace_diagnostics=False),
     document_diagnostic),
    (types.TEXT_DOCUMENT_HOVER, None, hover),
    (types.TEXT_DOCUMENT_CODE_ACTION,
     types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, convert.FIX_ALL_KIND],
                             resolve_provider=False),
     code_action),
    (LAUNCH_SUMMARIES, None, launch_summaries),
)


def create_server() -> PackgateServer:
    """A server with every packgate handler registered (the registry is HANDLERS)."""
    server = PackgateServer()
    for method, options, handler in HANDLERS:
        server.feature(method, options)(handler)
    return server


def _configure_logging() -> None:
    # stdout carries the protocol; pygls' own chatter goes to stderr, warnings only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="packgate-lsp %(levelname)s %(message)s")


def start_io() -> None:
    """Serve one client on stdin/stdout (what `packgate lsp` runs)."""
    _configure_logging()
    create_server().start_io()


def start_tcp(host: str, port: int) -> None:
    """Serve on a TCP socket (`packgate lsp --tcp --host H --port P`)."""
    _configure_logging()
    create_server().start_tcp(host, port)


def main(argv: list[str] | None = None) -> int:
    """`python -m packgate.lsp [--tcp --host H --port P]`, for use without the CLI."""
    parser = argparse.ArgumentParser(prog="packgate lsp")
    parser.add_argument("--tcp", action="store_true", help="serve on TCP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2087)
    args = parser.parse_args(argv)
    if args.tcp:
        start_tcp(args.host, args.port)
    else:
        start_io()
    return 0
