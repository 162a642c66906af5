"""The workspace-diagnostics pass: every shell script of the workspace folders, for workspace/diagnostic.

Open documents are answered at their current version. Closed scripts are analysed again only
when they, a file they source, their settings or the project changed (clients poll this
request; workspace.Checks keeps what was found), with $/progress while there is work to do.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.uris import from_fs_path

import packgate.lsp.convert as convert
import packgate.lsp.workspace as workspace

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer

# Server-initiated progress only when this many scripts need analysing: clients poll
# workspace/diagnostic, and a progress bar every poll would flicker.
PROGRESS_MIN = 10


async def check(ls: "PackgateServer", params: types.WorkspaceDiagnosticParams) -> list[Any]:
    """The report items of one workspace/diagnostic answer."""
    paths, cut = await ls.scripts()
    run = WorkspacePass(ls, params)
    todo = await run.sort(paths)
    token = None
    if todo and (params.work_done_token is not None or len(todo) >= PROGRESS_MIN):
        token = await ls.progress(params.work_done_token, "packgate: checking the workspace's scripts")
    try:
        await run.analyse(todo, token)
    finally:
        if token is not None:
            ls.work_done_progress.end(token, convert.progress_end(
                f"{len(paths)} scripts" + (" (stopped at the scan limit)" if cut else "")))
            ls.work_done_progress.tokens.pop(token, None)
    if not cut:
        ls.checks.keep_only(paths)
    else:  # the user is told once, not left to wonder why some scripts show nothing
        run.problems.append(
            f"packgate: workspace diagnostics cover the first {len(paths)} shell scripts only: the scan of the "
            f"workspace folders stops at {workspace.MAX_SCRIPTS} scripts or {workspace.MAX_VISITED} directory "
            "entries; open a script or run `packgate check DIR` for the others")
    ls.say(run.problems)
    return run.items


class WorkspacePass:
    """One workspace/diagnostic answer: the reports that are ready, and the analyses still to run."""

    def __init__(self, ls: "PackgateServer", params: types.WorkspaceDiagnosticParams) -> None:
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
        """The settings of a script (resolved once per folder)."""
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
                self.open_item(uri)
                continue
            uri = from_fs_path(path) or path
            settings, file_stamp = self.settings_of(path), workspace.stamp(path)
            checked = ls.checks.current(path, file_stamp, settings, ls.session.generation, self.stamp)
            if checked is None:
                todo.append((path, uri, file_stamp, settings))
            else:
                self.items.append(self.item(uri, checked))
        return todo

    def open_item(self, uri: str) -> None:
        """The report of an open document, at its current version."""
        ls = self.ls
        doc, entry = ls.document(uri), ls.entry(uri, full=False)
        if doc is None or entry is None:
            return
        if self.previous.get(unquote(uri)) == entry.result_id:
            self.items.append(convert.workspace_unchanged(uri, doc.version, entry.result_id))
        else:
            self.items.append(convert.workspace_full(uri, doc.version, ls.diagnostics(uri, entry), entry.result_id))

    async def analyse(self, todo: list[tuple[str, str, Any, Any]], token: Any) -> None:
        """Analyse the scripts that changed (sourced files followed as for open documents)."""
        ls = self.ls
        for done, (path, uri, file_stamp, settings) in enumerate(todo, 1):
            text = workspace.read_text(path)
            if text is not None:
                analysis = ls.session.analyze_file(text, path, settings)
                rendered = convert.to_diagnostics(analysis.findings, analysis.source, uri, None, ls.client,
                                                  analysis.source_for)
                self.items.append(self.item(uri, ls.checks.store(
                    path, file_stamp, settings, ls.session.generation, analysis.dependencies, self.stamp, rendered)))
            if token is not None:
                ls.work_done_progress.report(token, convert.progress_report(done, len(todo)))
            await asyncio.sleep(0)  # let edits, cancellations and other requests through

    def item(self, uri: str, checked: workspace.Checked) -> Any:
        """A closed script's report: `unchanged` when the client holds this result."""
        if self.previous.get(unquote(uri)) == checked.result_id:
            return convert.workspace_unchanged(uri, None, checked.result_id)
        return convert.workspace_full(uri, None, checked.rendered, checked.result_id)
