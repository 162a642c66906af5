"""packgate's language server: short pygls 2.x handlers that ask packgate.core and convert the answer.

Each handler finds the document, takes the cached analysis of its version from the session,
and hands the result to ``convert``. Diagnostics are pushed (``publishDiagnostics``) to
clients that cannot pull and answered on ``textDocument/diagnostic`` for clients that can,
never both. An exception in a handler is logged to the client (``window/logMessage``) and
answered with an empty result: the server never dies of one.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import inspect
import itertools
import json
import logging
import os
import stat
import sys
import time
import traceback
from typing import Any, Callable
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import (JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcMethodNotFound)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument

from packgate.lsp import convert, workspace
from packgate.lsp.convert import ClientFeatures
from packgate.lsp.session import Entry, Session, analyze, path_of, warm_up

logger = logging.getLogger("packgate.lsp")
INVALID_REQUEST, SERVER_NOT_INITIALIZED, PARSE_ERROR = -32600, -32002, -32700
ResponseError = types.ResponseError


class ClientMistake(Exception):
    """A message the client got wrong: answered with an error, never logged as ours."""


CLIENT_ERRORS = (ClientMistake, JsonRpcMethodNotFound, JsonRpcInvalidParams, JsonRpcInvalidRequest)


class _NoClientTracebacks(logging.Filter):
    """pygls logs every message it cannot read or handle with a traceback; for a client's mistake
    (not JSON, not UTF-8, params that do not fit) one line is written instead (report_server_error),
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
CONFIG_FILES = (".packgate.toml", "pyproject.toml")
# What can change an analysis besides the document: the project's Python code (profile auto),
# its packgate configuration, and the scripts a launcher sources.
WATCHED = ("**/*.py", "**/pyproject.toml", "**/.packgate.toml", "**/*.sh", "**/*.bash", "**/*.env")
LAUNCH_SUMMARIES = "packgate/launchSummaries"
# A change to a sourced file re-diagnoses the scripts that source it after this pause (a burst of
# keystrokes in the env file costs one analysis of each of them).
DEPENDENTS_DELAY = 0.05
# Server-initiated progress for workspace diagnostics only when this many scripts need analysing:
# clients poll workspace/diagnostic, and a progress bar every poll would flicker.
PROGRESS_MIN = 10
IDLE_GC = 0.5  # seconds without a message before the cycle collector runs
GC_BACKLOG = 200_000  # allocations after which it runs even while the client is busy
GC_IDLE_MIN = 1_000  # ... and below which an idle server does not bother


def _scan_settings() -> Any:
    from packgate.core.settings import Settings
    # references read assignments only: the cheapest rule, a fixed profile (no project index)
    return Settings(profile="ov2", select=("PG009",))


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
            source = self._server.session.source(doc.uri, text)
            start, end = convert.change_offsets(source, change, encoding)
            text = self._server.session.splice(doc.uri, source, start, end, change.text)
        doc.apply_change(types.TextDocumentContentChangeWholeDocument(text=text))
        doc.version = params.text_document.version
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    exit_code: int | None = None  # set by `exit`: 0 after shutdown, 1 without (LSP)
    _initialize_seen = False

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


class PackgateServer(LanguageServer):
    """The server object: client features, the session and the helpers handlers share."""

    def __init__(self) -> None:
        super().__init__("packgate", _version(), protocol_cls=PackgateProtocol)
        self.session = Session(loader_for=self.loader_for)
        self.client = ClientFeatures()
        self.pending: list[str] = []
        self.checks = workspace.Checks()  # workspace diagnostics of closed scripts
        self._waiting: set[str] = set()  # documents to re-diagnose after a sourced file changed
        self._waiting_handle: asyncio.TimerHandle | None = None
        self._tokens = itertools.count(1)
        self.last_activity = time.monotonic()  # when the last message came in
        self._collecting = False

    # -- memory --

    def collect_when_idle(self) -> None:
        """Run Python's cycle collector between keystrokes, not during them.

        An analysis leaves no reference cycles (it is freed as soon as it is dropped), but the
        collector still walks every live object now and then, the kept analyses included: a
        pause of tens of milliseconds in the middle of a didChange. So automatic collection is
        off, and a full collection runs once the client has been quiet for IDLE_GC seconds (if
        more than GC_IDLE_MIN objects were allocated since the last). Past GC_BACKLOG
        allocations while the client is busy (opening a large document allocates that much),
        the objects so far are frozen instead (gc.freeze: no pause, the collector skips them)
        and the next quiet moment unfreezes and collects them.
        """
        if self._collecting:
            return
        self._collecting = True
        gc.disable()
        loop = asyncio.get_running_loop()

        def tick() -> None:
            quiet = time.monotonic() - self.last_activity >= IDLE_GC
            pending = gc.get_count()[0]
            if quiet and (pending > GC_IDLE_MIN or gc.get_freeze_count()):
                gc.unfreeze()
                gc.collect()
            elif pending > GC_BACKLOG:
                gc.freeze()
            loop.call_later(IDLE_GC, tick)

        loop.call_later(IDLE_GC, tick)

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
        """pygls' errors go to the client's log, not to a pop-up; a client's mistakes are not ours."""
        if isinstance(error, json.JSONDecodeError):
            # JSON-RPC 2.0 §5.1 would answer with id null, but pygls' and vscode-jsonrpc's clients
            # cannot take a response without an id: a frame that is not JSON is logged and dropped
            logger.warning("dropped a message that is not JSON: %s", error)
            return
        if isinstance(error, UnicodeDecodeError):
            # the protocol's bodies are UTF-8: a client's bytes, not packgate's fault. A request
            # whose id can still be read gets a parse error, so the client does not wait for it.
            body = bytes(error.object or b"")
            logger.warning("dropped a message that is not UTF-8: byte %d (%r)", error.start,
                           body[error.start:error.start + 1])
            try:
                data = json.loads(body.decode("utf-8", "replace"))
            except ValueError:
                return
            if isinstance(data, dict) and isinstance(data.get("method"), str) and \
                    isinstance(data.get("id"), (int, str)) and not isinstance(data.get("id"), bool):
                self.protocol._send_response(data["id"], error=ResponseError(
                    code=PARSE_ERROR, message=f"parse error: the message is not UTF-8 (byte {error.start})"))
            return
        if isinstance(error, CLIENT_ERRORS):
            logger.info("client error: %s", error)
            return
        self.log(f"packgate: internal error ({getattr(source, '__name__', source)}): {error!r}", "error")

    # -- documents and analyses --

    def document(self, uri: str) -> TextDocument | None:
        """The open document at uri, or None (unknown and closed documents are not read from disk)."""
        return self.workspace.text_documents.get(unquote(uri))

    def entry(self, uri: str, revalidate: bool = False, full: bool = True) -> Entry | None:
        """The analysis of the open document's current version (cached per version).

        full=False: the findings are enough (diagnostics, code actions), so a slimmed analysis
        of a document not used lately serves as it is.
        """
        doc = self.document(uri)
        if doc is None:
            return None
        entry, problems = self.session.analysis(doc.uri, doc.version, doc.source, revalidate=revalidate,
                                                full=full)
        if entry.analysis.note:
            problems.append(f"{doc.uri}: {entry.analysis.note}")
        self.say(problems)
        return entry

    def diagnostics(self, uri: str, entry: Entry) -> list[types.Diagnostic]:
        """The entry's findings as LSP diagnostics (converted once per entry)."""
        if entry.rendered is None:
            entry.rendered = convert.to_diagnostics(entry.analysis.findings, entry.analysis.source, uri,
                                                    entry.version, self.client, entry.analysis.source_for)
            if entry.analysis.note:  # not analysed (too large): say so where the user looks
                entry.rendered.append(convert.note_diagnostic(entry.analysis.note))
        return entry.rendered

    def publish(self, uri: str, revalidate: bool = False) -> None:
        """Push the document's diagnostics with its version (push clients only)."""
        doc = self.document(uri)
        if doc is None or self.client.pull_diagnostics:
            return
        entry = self.entry(uri, revalidate, full=False)
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

    def rediagnose(self, uris: list[str] | None = None) -> None:
        """After a settings or project change (or a change of files the documents uris source;
        None: every open document): push again, or ask pulling clients to pull again."""
        if self.client.inlay_hint_refresh:
            self.workspace_inlay_hint_refresh(None)
        if self.client.pull_diagnostics:
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
            return
        if uris is None:
            uris = [doc.uri for doc in list(self.workspace.text_documents.values())]
        for uri in uris:
            self.publish(uri)

    def sources_changed(self, paths: list[str | None]) -> None:
        """Files changed (edited, saved, opened, closed or on disk): re-diagnose the open
        documents whose analysis read one of them, once the burst of changes is over."""
        uris = self.session.depending_on([p for p in paths if p])
        if not uris:
            return
        self.session.mark_stale(uris)
        self._waiting.update(uris)
        if self._waiting_handle is None:
            delay = max([DEPENDENTS_DELAY] + [self.session.pause_before(u) for u in uris])
            self._waiting_handle = asyncio.get_running_loop().call_later(delay, self._rediagnose_waiting)

    def _rediagnose_waiting(self) -> None:
        uris, self._waiting, self._waiting_handle = sorted(self._waiting), set(), None
        try:
            self.rediagnose(uris)
        except Exception:
            self.log(f"packgate: re-diagnosing {uris} failed\n{traceback.format_exc()}", "error")

    # -- the workspace --

    def roots(self) -> list[str]:
        """The workspace folders (real paths), or the root the client gave, or none."""
        folders = [path_of(f.uri) for f in self.workspace.folders.values()]
        if not folders and self.workspace.root_path:
            folders = [self.workspace.root_path]
        return [os.path.realpath(f) for f in folders if f]

    def root_for(self, path: str) -> str | None:
        """The widest workspace folder holding path; outside them, the project root as the CLI finds it."""
        from packgate.core.sources import default_root
        real = os.path.realpath(path)
        holding = [r for r in self.roots() if workspace.inside(real, r)]
        return min(holding, key=len) if holding else default_root(path)

    def overlay(self) -> dict[str, str]:
        """The text of every open file-backed document, by path (unsaved edits count)."""
        out = {}
        for doc in list(self.workspace.text_documents.values()):
            path = path_of(doc.uri)
            if path:
                out[path] = doc.source
        return out

    def loader_for(self, path: str | None) -> Callable[[str], Any] | None:
        """The reader of sourced files for a document: inside its workspace root, open documents first."""
        if path is None:
            return None  # an untitled document: nothing to resolve relative paths against
        from packgate.core.sources import SourceLoader
        return SourceLoader(self.root_for(path), overlay=self.overlay()).load

    def python_line(self, path: str, line: int) -> str | None:
        """A line of a Python file (from the editor when open), to convert its columns."""
        return workspace.read_line(path, line, self.overlay())

    async def scripts(self, uri: str | None = None) -> tuple[list[str], bool]:
        """The shell scripts of the workspace folders (or of the document's project without folders).

        The walk runs in a worker thread: a large tree must not hold up keystrokes.
        """
        roots = self.roots()
        if not roots and uri and (path := path_of(uri)):
            from pathlib import Path

            from packgate.core.project import find_root
            found = find_root(Path(path))
            roots = [os.path.realpath(found)] if found is not None else []
        return await asyncio.to_thread(workspace.scripts, roots)

    def open_uris(self) -> dict[str, str]:
        """real path -> URI of each open file-backed document."""
        out = {}
        for doc in list(self.workspace.text_documents.values()):
            path = path_of(doc.uri)
            if path:
                out[os.path.realpath(path)] = doc.uri
        return out

    async def progress(self, token: Any, title: str) -> Any:
        """The token to report work on: the client's, else a server-created one (None: no progress)."""
        if token is None and self.client.work_done_progress:
            token = f"packgate-{next(self._tokens)}"
            try:
                await self.work_done_progress.create_async(token)
            except Exception as exc:
                self.log(f"window/workDoneProgress/create failed: {exc!r}", "warning")
                return None
        if token is not None:
            self.work_done_progress.begin(token, convert.progress_begin(title))
        return token

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
    ls.collect_when_idle()
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
        ls.entry(uri, revalidate=True, full=False)  # the client pulls next: have the analysis ready
    else:
        ls.publish(uri, revalidate=True)
    ls.sources_changed([path_of(uri)])  # scripts sourcing it now read the editor's text


@guarded()
def did_change(ls: PackgateServer, params: types.DidChangeTextDocumentParams) -> None:
    """Diagnose the new version (the protocol has already applied the changes), and the scripts sourcing it."""
    ls.publish_soon(params.text_document.uri)
    ls.sources_changed([path_of(params.text_document.uri)])


@guarded()
def did_save(ls: PackgateServer, params: types.DidSaveTextDocumentParams) -> None:
    """A saved config or Python file changes the project; a saved script, the scripts sourcing it."""
    uri = params.text_document.uri
    if _is_project_file(path_of(uri) or uri):
        _project_changed(ls)
    else:
        ls.sources_changed([path_of(uri)])


@guarded()
def did_change_watched_files(ls: PackgateServer, params: types.DidChangeWatchedFilesParams) -> None:
    """Files changed outside the editor: the project's code or config (everything is analysed
    again), or scripts (the open documents sourcing them are)."""
    paths = [path_of(change.uri) for change in params.changes]
    if any(p is None or _is_project_file(p) for p in paths):
        _project_changed(ls)
    else:
        ls.sources_changed(paths)


def _is_project_file(path: str) -> bool:
    return path.endswith(CONFIG_FILES + (".py",))


def _project_changed(ls: PackgateServer) -> None:
    from packgate.core import project
    project.invalidate()
    ls.session.forget_all()
    ls.rediagnose()


@guarded()
def did_change_workspace_folders(ls: PackgateServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    """Other folders: other roots for sourced files and other project code (pygls has updated the list)."""
    _project_changed(ls)


@guarded()
def did_close(ls: PackgateServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document and clear its pushed diagnostics; scripts sourcing it read the disk again."""
    uri = params.text_document.uri
    ls.session.forget(uri)
    if not ls.client.pull_diagnostics:
        ls.text_document_publish_diagnostics(convert.publish_params(uri, None, []))
    ls.sources_changed([path_of(uri)])


@guarded(lambda: convert.full_report([], None))
def document_diagnostic(ls: PackgateServer, params: types.DocumentDiagnosticParams):
    """Pulled diagnostics; `unchanged` when the client already has this result."""
    uri = params.text_document.uri
    entry = ls.entry(uri, full=False)
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
    doc, entry = ls.document(uri), ls.entry(uri, full=False)
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
    entry = ls.entry(uri, full=False) if uri else None
    if entry is None:
        return None
    return convert.launch_summaries(entry.analysis.launch_summaries, entry.analysis.source, ls.client.encoding)


@guarded()
def definition(ls: PackgateServer, params: types.DefinitionParams) -> list[types.Location] | None:
    """On a gate: the training code's line(s) reading it, and the assignment(s) reaching a launch."""
    from packgate.core.navigation import definition as find
    doc, entry = ls.document(params.text_document.uri), ls.entry(params.text_document.uri)
    if doc is None or entry is None:
        return None
    analysis = entry.analysis
    found = find(analysis, convert.to_offset(analysis.source, params.position, ls.client.encoding))
    return convert.to_locations(found, doc.uri, analysis.source_for, ls.python_line, ls.client.encoding) or None


@guarded()
async def references(ls: PackgateServer, params: types.ReferenceParams) -> list[types.Location] | None:
    """On a gate: every place a shell script of the workspace sets (exports, assigns, unsets) it.

    The declaration is what definition answers in the shell: the assignment reaching a launch.
    """
    from packgate.core import navigation
    from packgate.core.gates import GATES
    doc, entry = ls.document(params.text_document.uri), ls.entry(params.text_document.uri)
    if doc is None or entry is None:
        return None
    here, enc = entry.analysis, ls.client.encoding
    offset = convert.to_offset(here.source, params.position, enc)
    occurrence = navigation.occurrence_at(here, offset)
    if occurrence is None or occurrence.name not in GATES:
        return None
    name = occurrence.name
    scripts, _cut = await ls.scripts(doc.uri)
    found: list[types.Location] = []
    for uri, analysis in _scripts_setting(ls, doc.uri, here, name, scripts):
        found += convert.to_locations(navigation.assignments(analysis, name), uri, analysis.source_for,
                                      ls.python_line, enc)
        await asyncio.sleep(0)
    if not params.context.include_declaration:
        declared = convert.to_locations([d for d in navigation.definition(here, offset) if d.line < 0],
                                        doc.uri, here.source_for, ls.python_line, enc)
        found = [loc for loc in found if loc not in declared]
    return convert.unique_locations(found) or None


def _scripts_setting(ls: PackgateServer, uri: str, here: Any, name: str, found: list[str]):
    """(uri, analysis) of this document, then of each workspace script (and sourced file) naming the variable."""
    yield uri, here
    this = path_of(uri)
    this = os.path.realpath(this) if this else None
    opened = ls.open_uris()
    root = ls.root_for(this) if this else None
    sourced = [p for p in sorted(here.dependencies) if root and workspace.inside(p, os.path.realpath(root))]
    paths = dict.fromkeys([os.path.realpath(p) for p in found] + sourced)
    for path in paths:
        if path == this:
            continue
        if path in opened:
            entry = ls.entry(opened[path])
            if entry is not None and name in entry.analysis.source.text:
                yield opened[path], entry.analysis
            continue
        text = workspace.read_text(path)
        if text is None or name not in text:
            continue
        # Only the file's own assignments count here: no source following, no project index.
        yield from_fs_path(path) or path, analyze(text, path=path, settings=_scan_settings(), loader=None,
                                                  revalidate=False)


@guarded(list)
def inlay_hint(ls: PackgateServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """After each launch command: the gate combination it sees and the verdict, in the `lang` setting."""
    entry = ls.entry(params.text_document.uri, full=False)  # the summaries survive slimming
    if entry is None:
        return []
    return convert.inlay_hints(entry.analysis.launch_summaries, entry.analysis.source, ls.client.encoding,
                               params.range)


@guarded()
def completion(ls: PackgateServer, params: types.CompletionParams) -> list[types.CompletionItem] | None:
    """Gate names after `export ` or where an assignment starts; `'1'` / `'0'` after `GATE=`;
    keywords, rules and profiles in a `# packgate` comment."""
    from packgate.core.navigation import completions
    entry = ls.entry(params.text_document.uri)
    if entry is None:
        return None
    analysis = entry.analysis
    offset = convert.to_offset(analysis.source, params.position, ls.client.encoding)
    return convert.completion_items(completions(analysis, offset, entry.settings.lang), ls.client) or None


@guarded(lambda: convert.workspace_report([]))
async def workspace_diagnostic(ls: PackgateServer, params: types.WorkspaceDiagnosticParams):
    """Every shell script of the workspace folders; open documents at their current version.

    Closed scripts are analysed again only when they, a file they source, their settings or the
    project changed (clients poll this request), with $/progress while there is work to do.
    """
    paths, cut = await ls.scripts()
    check = _WorkspacePass(ls, params)
    todo = await check.sort(paths)
    token = None
    if todo and (params.work_done_token is not None or len(todo) >= PROGRESS_MIN):
        token = await ls.progress(params.work_done_token, "packgate: checking the workspace's scripts")
    try:
        await check.run(todo, token)
    finally:
        if token is not None:
            ls.work_done_progress.end(token, convert.progress_end(
                f"{len(paths)} scripts" + (" (stopped at the scan limit)" if cut else "")))
            ls.work_done_progress.tokens.pop(token, None)
    if not cut:
        ls.checks.keep_only(paths)
    ls.say(check.problems)
    return convert.workspace_report(check.items)


class _WorkspacePass:
    """One workspace/diagnostic answer: the reports that are ready, and the analyses still to run."""

    def __init__(self, ls: PackgateServer, params: types.WorkspaceDiagnosticParams) -> None:
        self.ls = ls
        self.previous = {unquote(k): v for k, v in convert.previous_result_ids(params).items()}
        self.opened = ls.open_uris()
        self.overlay = {os.path.realpath(p): t for p, t in ls.overlay().items()}
        self.settings: dict[str, Any] = {}  # per folder
        self.problems: list[str] = []
        self.items: list[Any] = []

    def stamp(self, path: str) -> Any:
        """What a sourced file's content is known by: the open text, else (mtime, size)."""
        text = self.overlay.get(path)
        return ("open", len(text), hash(text)) if text is not None else workspace.stamp(path)

    def settings_of(self, path: str) -> Any:
        folder = os.path.dirname(path)
        if folder not in self.settings:
            self.settings[folder] = self.ls.session.settings_for(from_fs_path(path) or path, self.problems)
        return self.settings[folder]

    async def sort(self, paths: list[str]) -> list[tuple[str, str, Any, Any]]:
        """Answer open documents and unchanged scripts; return (path, uri, stamp, settings) to analyse."""
        ls, todo = self.ls, []
        for n, path in enumerate(paths, 1):
            if n % 200 == 0:
                await asyncio.sleep(0)  # stat checks of a large tree: let keystrokes through
            uri = self.opened.get(os.path.realpath(path))
            if uri is not None:
                doc, entry = ls.document(uri), ls.entry(uri, full=False)
                if doc is not None and entry is not None:
                    self.items.append(convert.workspace_unchanged(uri, doc.version, entry.result_id)
                                      if self.previous.get(unquote(uri)) == entry.result_id else
                                      convert.workspace_full(uri, doc.version, ls.diagnostics(uri, entry),
                                                             entry.result_id))
                continue
            uri = from_fs_path(path) or path
            settings, file_stamp = self.settings_of(path), workspace.stamp(path)
            checked = ls.checks.current(path, file_stamp, settings, ls.session.generation, self.stamp)
            if checked is None:
                todo.append((path, uri, file_stamp, settings))
            else:
                self.items.append(self.item(uri, checked))
        return todo

    async def run(self, todo: list[tuple[str, str, Any, Any]], token: Any) -> None:
        """Analyse the scripts that changed (sourced files followed as for open documents)."""
        ls = self.ls
        for done, (path, uri, file_stamp, settings) in enumerate(todo, 1):
            text = workspace.read_text(path)
            if text is not None:
                analysis = analyze(text, path=path, settings=settings, loader=ls.loader_for(path), revalidate=False)
                rendered = convert.to_diagnostics(analysis.findings, analysis.source, uri, None, ls.client,
                                                  analysis.source_for)
                self.items.append(self.item(uri, ls.checks.store(
                    path, file_stamp, settings, ls.session.generation, analysis.dependencies, self.stamp, rendered)))
            if token is not None:
                ls.work_done_progress.report(token, convert.progress_report(done, len(todo)))
            await asyncio.sleep(0)  # let edits, cancellations and other requests through

    def item(self, uri: str, checked: workspace.Checked) -> Any:
        if self.previous.get(unquote(uri)) == checked.result_id:
            return convert.workspace_unchanged(uri, None, checked.result_id)
        return convert.workspace_full(uri, None, checked.rendered, checked.result_id)


HANDLERS: tuple[tuple[str, Any, Callable[..., Any]], ...] = (
    (types.INITIALIZE, None, initialize),
    (types.INITIALIZED, None, initialized),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, None, did_change_configuration),
    (types.TEXT_DOCUMENT_DID_OPEN, None, did_open),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
    (types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False), did_save),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, did_change_watched_files),
    (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, None, did_change_workspace_folders),
    # interFileDependencies: a script's diagnostics change when a file it sources does.
    (types.TEXT_DOCUMENT_DIAGNOSTIC,
     types.DiagnosticOptions(identifier="packgate", inter_file_dependencies=True, workspace_diagnostics=True),
     document_diagnostic),
    (types.WORKSPACE_DIAGNOSTIC, None, workspace_diagnostic),
    (types.TEXT_DOCUMENT_HOVER, None, hover),
    (types.TEXT_DOCUMENT_CODE_ACTION,
     types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, convert.FIX_ALL_KIND],
                             resolve_provider=False),
     code_action),
    (types.TEXT_DOCUMENT_DEFINITION, None, definition),
    (types.TEXT_DOCUMENT_REFERENCES, None, references),
    (types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False), inlay_hint),
    (types.TEXT_DOCUMENT_COMPLETION,
     types.CompletionOptions(trigger_characters=[" ", "="], resolve_provider=False), completion),
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
    for handler in logging.getLogger().handlers:  # pygls' loops log from pygls.io_ and pygls.server
        handler.addFilter(_NoClientTracebacks())


class _PipeReader:
    """stdin read by the event loop itself (asyncio's pipe transport), for pygls' message loop.

    pygls reads stdin in a worker thread, one handoff per header line and per body: three
    trips through the thread pool for every message, about 1.5 ms of each keystroke's latency
    on this machine. Here the loop reads whatever arrived and serves lines and bodies from
    that buffer."""

    def __init__(self, stream: asyncio.StreamReader):
        self.stream = stream

    async def readline(self) -> bytes:
        # Let what the previous message scheduled run first (an async handler such as
        # didChangeConfiguration's is a task): reading from a buffer would not yield, and the
        # next message would overtake it.
        await asyncio.sleep(0)
        return await self.stream.readline()

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError as exc:  # the client went away mid-message
            return exc.partial


def _stdin_is_pipe(fd: int) -> bool:
    """Whether fd is a pipe or a socket (what the event loop's reader can watch)."""
    try:
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _serve_pipe(server: "PackgateServer") -> bool:
    """Serve stdin/stdout with _PipeReader.

    False (nothing done) when stdin is not a pipe or a socket: the event loop cannot watch a file
    or /dev/null, and a terminal is left to pygls."""
    import threading

    from pygls.io_ import StdoutWriter, run_async
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        return False
    if not _stdin_is_pipe(fd):
        return False

    async def serve() -> None:
        stream = asyncio.StreamReader(limit=1 << 20)
        loop = asyncio.get_running_loop()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), sys.stdin.buffer)
        await run_async(stop_event=server._stop_event, reader=_PipeReader(stream), protocol=server.protocol,
                        logger=logging.getLogger("pygls.io_"), error_handler=server.report_server_error)

    server._stop_event = threading.Event()  # what pygls' own start_io sets up
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(serve())
    except BrokenPipeError:
        logger.error("the client's pipe closed: stopping")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
    return True


def start_io() -> int:
    """Serve one client on stdin/stdout (what `packgate lsp` runs); the LSP exit code."""
    _configure_logging()
    server = create_server()
    if not _serve_pipe(server):
        server.start_io()
    code = server.protocol.exit_code
    if code is None:  # the input ended without `exit`: fine only after a shutdown
        code = 0 if server.protocol._shutdown else 1
    return code


def start_tcp(host: str, port: int) -> None:
    """Serve on a TCP socket (`packgate lsp --tcp --host H --port P`)."""
    _configure_logging()
    create_server().start_tcp(host, port)
