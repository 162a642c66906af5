"""The pygls server object the handlers share: the client's features, the session, and the
helpers that find a document, its analysis and its diagnostics, and push them.

Diagnostics are pushed (``publishDiagnostics``) to clients that cannot pull and answered on
``textDocument/diagnostic`` for clients that can, never both.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import sys
import time
import traceback
from typing import Any, Callable
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

import packgate.lsp.convert as convert
import packgate.lsp.memory as memory
import packgate.lsp.workspace as workspace
from packgate.core.project import assumed_message
from packgate.lsp.convert import ClientFeatures
from packgate.lsp.pool import ScriptPool
from packgate.lsp.protocol import PackgateProtocol, report_client_error
from packgate.lsp.session import Entry, Session, path_of

logger = logging.getLogger("packgate.lsp")
# A change to a sourced file re-diagnoses the scripts that source it after this pause (a burst of
# keystrokes in the env file costs one analysis of each of them).
DEPENDENTS_DELAY = 0.05
# The first diagnostics wait for the client's settings (workspace/configuration, asked in
# `initialized`) at most this long: sent before them, they would show findings `select` turns
# off, in the language `lang` does not ask for, and be replaced a moment later.
SETTINGS_WAIT = 1.0


def _version() -> str:
    return getattr(sys.modules.get("packgate"), "__version__", "0.0.0")


class PackgateServer(LanguageServer):
    """The server object: client features, the session and the helpers handlers share."""

    def __init__(self) -> None:
        super().__init__("packgate", _version(), protocol_cls=PackgateProtocol, converter_factory=convert.converter)
        self.session = Session(loader_for=self.loader_for)
        self.client = ClientFeatures()
        self.pending: list[str] = []
        self.checks = workspace.Checks()  # workspace diagnostics of closed scripts
        self.pool = ScriptPool()  # worker processes for big workspace passes (started on the first)
        self._waiting: set[str] = set()  # documents to re-diagnose after a sourced file changed
        self._waiting_handle: asyncio.TimerHandle | None = None
        self._tokens = itertools.count(1)
        self.last_activity = time.monotonic()  # when the last message came in
        self.passes = 0  # workspace passes running: the cycle collector waits for them (lsp.memory)
        self._collecting = False
        # False from `initialize` (for a client with workspace/configuration) until its answer
        # or SETTINGS_WAIT: diagnostics wait (settings_awaited, publish holds them in _held)
        self.settings_known = True
        self._settings_event: asyncio.Event | None = None
        self._held: dict[str, bool] = {}  # uri -> revalidate: pushes held until the settings are known
        self._held_handle: asyncio.TimerHandle | None = None

    # -- the client's settings, before the first diagnostics --

    def await_settings(self) -> None:
        """From `initialize`: the client will be asked for its settings; diagnostics wait for them."""
        self.settings_known = False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a unit test's server): nothing can be waited for
            self.settings_known = True
            return
        self._held_handle = loop.call_later(SETTINGS_WAIT, self.settings_arrived)

    def settings_arrived(self, publish_held: bool = True) -> None:
        """The client's settings are in (or SETTINGS_WAIT is over): push what was held, unless
        the caller diagnoses every document anew (publish_held=False), and let pulls through."""
        if self.settings_known:
            return
        self.settings_known = True
        if self._held_handle is not None:
            self._held_handle.cancel()
            self._held_handle = None
        if self._settings_event is not None:
            self._settings_event.set()
        held, self._held = self._held, {}
        for uri, revalidate in held.items() if publish_held else ():
            try:
                self.publish(uri, revalidate)
            except Exception:
                self.log(f"packgate: publishing {uri} failed\n{traceback.format_exc()}", "error")

    async def settings_awaited(self) -> None:
        """Return once the client's settings are known (at most SETTINGS_WAIT after `initialize`)."""
        if self.settings_known:
            return
        if self._settings_event is None:
            self._settings_event = asyncio.Event()
        try:
            await asyncio.wait_for(self._settings_event.wait(), SETTINGS_WAIT)
        except asyncio.TimeoutError:
            self.settings_arrived()

    def collect_when_idle(self) -> None:
        """Run Python's cycle collector between keystrokes, not during them (packgate.lsp.memory)."""
        if not self._collecting:
            self._collecting = True
            memory.collect_when_idle(lambda: self.last_activity, lambda: self.passes > 0)

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
        if not report_client_error(self.protocol, error):
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
        assumed = assumed_message(entry.analysis.profile, entry.analysis.settings.lang)
        path = path_of(doc.uri)
        # logged once per reason (and so per project root), and the gate hover says it too; a
        # buffer with no file on disk has no project to look in
        if assumed and path and os.path.isfile(path):
            for line in self.session.unseen([assumed]):
                self.log(line, "info")
        self.say(problems)
        return entry

    def diagnostics(self, uri: str, entry: Entry) -> list[types.Diagnostic]:
        """The entry's findings as LSP diagnostics (converted once per entry)."""
        if entry.rendered is None:
            entry.rendered = convert.to_diagnostics(entry.analysis.findings, entry.analysis.source, uri,
                                                    entry.version, self.client, entry.analysis.source_for)
            # a directive that is not one, CRLF line ends: warnings without a code, as the CLI's problems
            entry.rendered += convert.notice_diagnostics(entry.analysis.notices, entry.analysis.source,
                                                         entry.version, self.client)
            if entry.analysis.note:  # not analysed (too large): say so where the user looks
                entry.rendered.append(convert.note_diagnostic(entry.analysis.note))
        return entry.rendered

    def publish(self, uri: str, revalidate: bool = False) -> None:
        """Push the document's diagnostics with its version (push clients only); before the
        client's settings are known, held until they are (settings_arrived)."""
        doc = self.document(uri)
        if doc is None or self.client.pull_diagnostics:
            return
        if not self.settings_known:
            self._held[uri] = self._held.get(uri, False) or revalidate
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

    def root_for(self, path: str, real: str | None = None, roots: list[str] | None = None) -> str | None:
        """The widest workspace folder holding path; outside them, the project root as the CLI
        finds it (looked up again on open and save: Session.analysis). real and roots: path's
        real path and the workspace folders, when the caller has them already."""
        from packgate.core.sourced import default_root
        real = os.path.realpath(path) if real is None else real
        holding = [r for r in (self.roots() if roots is None else roots) if workspace.inside(real, r)]
        return min(holding, key=len) if holding else default_root(path, refresh=False)

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
        from packgate.core.sourced import SourceLoader
        made: list = []

        def load(sourced: str) -> Any:
            # Made at the first `source` the analysis meets (it runs before the next message is
            # read, so the open documents are the same): most scripts source nothing, and the
            # root and every open document's real path would cost each keystroke.
            if not made:
                made.append(SourceLoader(self.root_for(path), overlay=self.overlay()))
            return made[0].load(sourced)

        return load

    def python_line(self, path: str, line: int) -> str | None:
        """A line of a Python file (from the editor when open), to convert its columns."""
        return workspace.read_line(path, line, self.overlay())

    def scan_limits(self) -> workspace.ScanLimits:
        """Where a workspace scan stops (packgate.workspace.maxScripts and maxFiles)."""
        problems: list[str] = []
        limits = workspace.ScanLimits.of(self.session.editor_only(problems))
        self.say(problems)
        return limits

    async def scripts(self, uri: str | None = None, limits: workspace.ScanLimits | None = None,
                      on_count: Callable[[int], None] | None = None) -> tuple[list[str], str | None]:
        """The shell scripts of the workspace folders (or of the document's project without
        folders), and which limit cut the scan short (workspace.scripts; limits: the settings'
        when not given; on_count: told the count found so far, in the scan's thread).

        The walk runs in a worker thread: a large tree must not hold up keystrokes.
        """
        roots = self.roots()
        if not roots and uri and (path := path_of(uri)):
            from packgate.core.project import find_root
            found = find_root(path)
            roots = [os.path.realpath(found)] if found is not None else []
        return await asyncio.to_thread(workspace.scripts, roots, limits or self.scan_limits(), on_count)

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


