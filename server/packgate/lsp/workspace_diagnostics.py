"""The workspace-diagnostics pass: every shell script of the workspace folders, for workspace/diagnostic.

Open documents are answered at their current version. Closed scripts are analysed again only
when they, a file they source, their settings or the project changed (clients poll this
request; workspace.Checks keeps what was found), with $/progress while there is work to do.
A big pass analyses in the server's worker processes (lsp/pool.py), which send each report back
written as JSON already (lsp/closed_reports.py): this process stores and forwards it. With a partialResultToken
the reports are sent as they are ready ($/progress partial results, a batch at most every
FLUSH_S); the answer then carries none.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator
from urllib.parse import unquote

from lsprotocol import types
from pygls.uris import from_fs_path

import packgate.lsp.convert as convert
import packgate.lsp.workspace as workspace
from packgate.core.closed_scripts import Batch, ScriptJob
from packgate.core.exclusion import matching, patterns_of
from packgate.core.settings import CONFIG_NAMES, find_config
from packgate.core.workers import full_pool_at
from packgate.lsp.closed_reports import ClosedReport, Rendering, ReportBatch, report_script
from packgate.lsp.diagnostic_json import workspace_full_json
from packgate.lsp.pool import PoolBroken

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer

# Server-initiated progress only when this many scripts need analysing: clients poll
# workspace/diagnostic, and a progress bar every poll would flicker.
PROGRESS_MIN = 10
# Partial results: the first as soon as there is one, then at most one batch per FLUSH_S.
FLUSH_S = 0.2
# scripts per job handed to a worker process (~150 ms of its time). Each job costs the server's
# own process about a millisecond of CPU (the pool's threads, the event loop), which the workers
# lose on a busy machine: 8 a job made a pass over 1,000 scripts 0.12 s of CPU dearer
BATCH = 32
FIRST_BATCH = 2
SORT_STEP = 50  # scripts sorted between two looks at the protocol stream (about 10 ms)


async def check(ls: "PackgateServer", params: types.WorkspaceDiagnosticParams) -> list[Any]:
    """The report items of one workspace/diagnostic answer (none when they were all streamed)."""
    ls.passes += 1
    try:
        return await _check(ls, params)
    finally:
        ls.passes -= 1


async def _check(ls: "PackgateServer", params: types.WorkspaceDiagnosticParams) -> list[Any]:
    limits = ls.scan_limits()
    run = WorkspacePass(ls, params)
    paths, cut = await ls.scripts(limits=limits, on_count=run.pool_starter())
    run.start_pool(len(paths) - len(ls.checks.items))  # the scripts it holds no result for
    todo = await run.sort(paths)
    run.out.flush()
    token = None
    if todo and (params.work_done_token is not None or len(todo) >= PROGRESS_MIN):
        token = await ls.progress(params.work_done_token, "packgate: checking the workspace's scripts")
    try:
        await run.analyse(todo, token)
    finally:
        if token is not None:
            pooled = f", {run.pooled} analysed in worker processes" if run.pooled else ""
            ls.work_done_progress.end(token, convert.progress_end(
                f"{len(paths)} scripts{pooled}" + (" (stopped at a scan limit)" if cut else "")))
            ls.work_done_progress.tokens.pop(token, None)
    if cut is None:
        ls.checks.keep_only(paths)
    else:  # the user is told once, not left to wonder why some scripts show nothing
        run.problems.append(cut_message(cut, limits))
    ls.say(run.problems)
    return run.out.rest()


def cut_message(cut: str, limits: workspace.ScanLimits) -> str:
    """What the user is told when a scan limit stopped the scan of the workspace folders."""
    if cut == workspace.CUT_SCRIPTS:
        where = f"after {limits.max_scripts} shell scripts (the setting packgate.workspace.maxScripts)"
    else:
        where = f"after looking at {limits.max_files} files (the setting packgate.workspace.maxFiles)"
    return (f"packgate: workspace diagnostics do not cover every shell script: the scan of the workspace "
            f"folders stopped {where}; raise the setting (0: no limit), open a script, or run "
            "`packgate check DIR` for the others")


@dataclass(frozen=True)
class Todo:
    """A closed script to analyse, with what its result is stored under."""

    path: str
    uri: str
    stamp: Any
    settings: Any
    root: str | None  # the project root its sourced files must lie in


class Stream:
    """The report items of one answer: sent as partial results when the client gave a token
    (then every item goes that way and the answer is empty), else all in the answer."""

    def __init__(self, ls: "PackgateServer", token: Any) -> None:
        self.ls, self.token = ls, token
        self.pending: list[Any] = []
        self.sent = 0  # partial results sent
        self.last = 0.0

    def add(self, item: Any) -> None:
        """One more report item."""
        self.pending.append(item)

    def flush(self, force: bool = False) -> None:
        """Send what is pending as a partial result: the first at once, later ones FLUSH_S apart."""
        if self.token is None or not self.pending:
            return
        now = time.monotonic()
        if not force and self.sent and now - self.last < FLUSH_S:
            return
        items, self.pending = self.pending, []
        self.ls.protocol.notify(types.PROGRESS, types.ProgressParams(
            token=self.token, value=types.WorkspaceDiagnosticReportPartialResult(items=items)))
        self.sent, self.last = self.sent + 1, now

    def rest(self) -> list[Any]:
        """The items of the answer itself: none once partial results were sent (the protocol's rule)."""
        if self.sent:
            self.flush(force=True)
            return []
        items, self.pending = self.pending, []
        return items


class WorkspacePass:
    """One workspace/diagnostic answer: the reports that are ready, and the analyses still to run."""

    def __init__(self, ls: "PackgateServer", params: types.WorkspaceDiagnosticParams) -> None:
        self.ls = ls
        self.previous = {unquote(k): v for k, v in convert.previous_result_ids(params).items()}
        self.opened = ls.open_uris()
        self.texts = ls.overlay()  # open documents by path: sourced files are read from them
        self.overlay = {os.path.realpath(p): t for p, t in self.texts.items()}
        self.rendering = Rendering(ls.client.encoding, ls.client.related_information)
        self.generation = ls.session.generation
        self.roots = ls.roots()
        self.settings: dict[str, Any] = {}  # per folder
        self.bases: dict[str, str] = {}  # per folder: what exclude patterns are relative to
        self.problems: list[str] = []
        self.out = Stream(ls, params.partial_result_token)
        self.done = 0  # of the scripts analyse() was given
        self.total = 0
        self.pooled = 0  # of them analysed in the worker processes
        self.starting: asyncio.Future | None = None  # the worker processes starting

    def stamp(self, path: str) -> Any:
        """What a sourced file's content is known by: the open text, else (mtime, size)."""
        text = self.overlay.get(path)
        return ("open", len(text), hash(text)) if text is not None else workspace.stamp(path)

    def settings_of(self, path: str) -> Any:
        """The settings of a script, resolved once per folder: a folder without a configuration
        file has its parent's (the lookup goes up the same way), so a tree of a thousand folders
        costs two stats a folder, not a walk to the file system's root for each."""
        folder = os.path.dirname(path)
        chain = []
        while folder not in self.settings:
            chain.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder or folder in self.roots or \
                    any(os.path.isfile(os.path.join(folder, name)) for name in CONFIG_NAMES):
                self.settings[folder] = self.ls.session.settings_for(from_fs_path(folder) or folder, self.problems)
                break
            folder = parent
        for below in chain:
            self.settings[below] = self.settings[folder]
        return self.settings[folder]

    def excluded(self, path: str, settings: Any) -> bool:
        """Whether the settings' `exclude` / `extend-exclude` skip a closed script, as `packgate
        check` run in the configuration file's folder skips it: patterns with a slash are relative
        to that folder (to the workspace folder when no configuration file set them)."""
        patterns = patterns_of(settings)
        if not patterns:
            return False
        folder = os.path.dirname(path)
        chain = []
        while folder not in self.bases:  # looked up once per folder, as settings_of does
            chain.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder or folder in self.roots or \
                    any(os.path.isfile(os.path.join(folder, name)) for name in CONFIG_NAMES):
                found, _raw = find_config(folder)
                self.bases[folder] = os.path.dirname(found) if found is not None else \
                    (self.ls.root_for(path, roots=self.roots) or folder)
                break
            folder = parent
        for below in chain:
            self.bases[below] = self.bases[folder]
        return matching(path, patterns, self.bases[folder]) is not None

    async def sort(self, paths: list[str]) -> list[Todo]:
        """Answer open documents and unchanged scripts; return the scripts to analyse. A big
        tree's first reports go out while it is sorted: what is ready, else one script analysed."""
        ls, todo = self.ls, []
        for n, path in enumerate(paths, 1):
            if n % SORT_STEP == 0:
                if not self.out.sent and not self.out.pending and todo:
                    first = todo.pop(0)
                    self.take(first, report_script(self.job(first), self.texts, self.rendering))
                self.out.flush()
                await asyncio.sleep(0)  # stat checks of a large tree: let keystrokes through
            real = workspace.real_path(path)
            uri = self.opened.get(real)
            if uri is not None:
                self.open_item(uri)
                continue
            uri = from_fs_path(path) or path
            settings = self.settings_of(path)
            if self.excluded(path, settings):  # as `packgate check` skips it
                continue
            file_stamp = workspace.stamp(path)
            checked = ls.checks.current(path, file_stamp, settings, self.generation, self.stamp)
            if checked is None:
                todo.append(Todo(path, uri, file_stamp, settings, self.ls.root_for(path, real, self.roots)))
            else:
                self.out.add(self.item(uri, checked))
        return todo

    def open_item(self, uri: str) -> None:
        """The report of an open document, at its current version."""
        ls = self.ls
        doc, entry = ls.document(uri), ls.entry(uri, full=False)
        if doc is None or entry is None:
            return
        if self.previous.get(unquote(uri)) == entry.result_id:
            self.out.add(convert.workspace_unchanged(uri, doc.version, entry.result_id))
        else:
            self.out.add(convert.workspace_full(uri, doc.version, ls.diagnostics(uri, entry), entry.result_id))

    def pool_starter(self) -> Callable[[int], None]:
        """What the scan calls, in its thread, with the count of scripts found so far: once there
        are enough that a pass would keep the largest pool busy, the workers start while the scan
        goes on (a fork server takes most of a second to start them)."""
        loop, known = asyncio.get_running_loop(), len(self.ls.checks.items)
        enough = known + full_pool_at()

        def found(count: int) -> None:
            if count == enough:
                loop.call_soon_threadsafe(self.start_pool, count - known)
        return found

    def start_pool(self, scripts: int) -> None:
        """Start the worker processes now (while the scripts are sorted) when a pass over this
        many scripts would use them and they are neither up nor starting."""
        pool = self.ls.pool
        workers = pool.workers_for(scripts)
        if workers > 1 and not pool.running and self.starting is None:
            # never cancelled (the workers would start unowned): a pass cancelled meanwhile leaves
            # them to the next pass, or to the idle timer
            self.starting = asyncio.ensure_future(pool.start(workers))
            self.starting.add_done_callback(lambda f: f.cancelled() or f.exception())

    async def analyse(self, todo: list[Todo], token: Any) -> None:
        """Analyse the scripts that changed (sourced files followed as for open documents): in the
        worker processes when there are many, else (or when a worker died) in this process."""
        left = {t.path: t for t in todo}
        self.total = len(todo)
        pool = self.ls.pool
        workers = pool.workers_for(len(todo))
        if workers > 1:
            try:
                if self.starting is not None and not self.starting.done() and not self.out.sent:
                    await self.analyse_here(left, token, 1)  # a first report while they start
                if self.starting is not None:
                    await asyncio.shield(self.starting)

                def take(batch: ReportBatch, results: list[ClosedReport]) -> None:
                    self.pooled += len(results)
                    for result in results:
                        self.take(left.pop(result.path), result)
                    self.advance(token, len(results), self.total)
                    self.out.flush()
                await pool.run(self.batches(list(left.values()), workers), workers, take)
            except PoolBroken as exc:
                self.ls.log(f"packgate: a worker process of the workspace pass stopped ({exc}); the "
                            "other scripts are analysed in the server's process", "warning")
        await self.analyse_here(left, token, len(left))

    async def analyse_here(self, left: dict[str, Todo], token: Any, count: int) -> None:
        """Analyse up to count of the scripts left in this process, one at a time."""
        for item in list(itertools.islice(left.values(), count)):
            del left[item.path]
            self.take(item, report_script(self.job(item), self.texts, self.rendering))
            self.advance(token, 1, self.total)
            self.out.flush()
            await asyncio.sleep(0)  # let edits, cancellations and other requests through

    def batches(self, todo: list[Todo], workers: int) -> Iterator[ReportBatch]:
        """The work for the pool, made as the pool asks for more: BATCH scripts a job, fewer in
        the first job of each worker (the first reports come sooner)."""
        start = 0
        for n in itertools.count():
            size = FIRST_BATCH if n < workers else BATCH
            if start >= len(todo):
                return
            jobs = tuple(self.job(t) for t in todo[start:start + size])
            yield ReportBatch(Batch(jobs, self.texts, self.generation), self.rendering)
            start += size

    def job(self, todo: Todo) -> ScriptJob:
        """What analysing a script needs besides the open documents' texts."""
        return ScriptJob(todo.path, todo.root, todo.settings)

    def take(self, todo: Todo, result: ClosedReport) -> None:
        """One script reported: keep its diagnostics in ls.checks, and queue its report."""
        if result.diagnostics is None:
            return
        self.out.add(self.item(todo.uri, self.ls.checks.store(
            todo.path, todo.stamp, todo.settings, self.generation, result.dependencies, self.stamp,
            result.diagnostics)))

    def advance(self, token: Any, count: int, total: int) -> None:
        """count more of total scripts analysed: $/progress at each new percent."""
        before, self.done = self.done, self.done + count
        if token is not None and 100 * self.done // total != 100 * before // total:
            self.ls.work_done_progress.report(token, convert.progress_report(self.done, total))

    def item(self, uri: str, checked: workspace.Checked) -> Any:
        """A closed script's report: `unchanged` when the client holds this result."""
        if self.previous.get(unquote(uri)) == checked.result_id:
            return convert.workspace_unchanged(uri, None, checked.result_id)
        return workspace_full_json(uri, checked.rendered, checked.result_id)
