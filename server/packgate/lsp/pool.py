"""The language server's worker processes: the closed scripts of a big workspace pass are
analysed there, one worker per core (packgate.core.workers sizes it, as for `packgate check DIR`), while
the server's own process stays free for keystrokes.

The pool starts on the first pass with enough scripts (never with PACKGATE_JOBS=1), stops after
IDLE_S without work and when the server exits. Workers come from a fork server (or are spawned
where there is none), never forked from the server itself, whose threads, event loop and protocol
stream they must not inherit; they import packgate.lsp.closed_reports and the core (of pygls,
its uris module only). A worker that dies breaks the pool: the caller gets PoolBroken (and
analyses in its own process), and the pool is not used again in this session.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Iterable

import packgate.core.closed_scripts as closed_scripts
from packgate.core.workers import pool_size
from packgate.lsp.closed_reports import report_batch

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

IDLE_S = 300.0  # seconds without work before the workers are stopped (an idle server holds none)
QUEUED_PER_WORKER = 2  # batches handed to the pool ahead: enough to keep workers busy, few to cancel
# What a fork server loads once, before any worker is forked from it.
PRELOAD = ["packgate.lsp.closed_reports", "packgate.core.engine"]


class PoolBroken(Exception):
    """A worker process died (killed, out of memory): the pool cannot finish the work."""


class ScriptPool:
    """The worker processes of workspace passes, started on first use."""

    def __init__(self, work: Callable[[Any], Any] = report_batch) -> None:
        self.work = work  # what a worker runs on each batch
        self.broken = False
        self._executor: ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()
        self._idle: asyncio.TimerHandle | None = None
        self._active = 0  # passes running batches now

    @property
    def running(self) -> bool:
        """Whether the workers are up."""
        return self._executor is not None

    def workers_for(self, scripts: int) -> int:
        """Workers for a pass over this many scripts (1: analyse them in the server's process)."""
        return 1 if self.broken else pool_size(scripts)

    async def start(self, workers: int) -> None:
        """Start the workers unless they run (in a thread: a few hundred milliseconds the event
        loop does not wait for); PoolBroken if they cannot start."""
        async with self._starting:
            if self._executor is None and not self.broken:
                try:
                    self._executor = await asyncio.to_thread(_start, workers)
                except Exception as exc:  # no fork server, no /dev/shm...: the work stays in process
                    self.broken = True
                    raise PoolBroken(f"the worker processes did not start: {exc!r}") from exc
                self._rest()
        if self._executor is None:
            raise PoolBroken("the worker processes stopped earlier")

    async def run(self, batches: Iterable[Any], workers: int, take: Callable[[Any, Any], None]) -> None:
        """Run work on every batch in the workers (started first if needed), take(batch, result)
        as each is done (on the event loop). Cancelling the caller stops the batches not yet
        started; PoolBroken if a worker died (the batches taken so far stay taken)."""
        from concurrent.futures.process import BrokenProcessPool  # imported on first use: the server starts sooner
        await self.start(workers)
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self._active += 1
        loop = asyncio.get_running_loop()
        waiting = iter(batches)
        running: dict[asyncio.Future, Any] = {}
        try:
            while True:
                for batch in waiting:
                    running[loop.run_in_executor(self._executor, self.work, batch)] = batch
                    if len(running) >= QUEUED_PER_WORKER * workers:
                        break
                if not running:
                    return
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                failed = None
                for future in done:
                    batch = running.pop(future)
                    if future.exception() is None:
                        take(batch, future.result())
                    else:
                        failed = failed or future.exception()
                if failed is not None:
                    raise failed
        except BrokenProcessPool as exc:
            self.broken = True
            self.shutdown()
            raise PoolBroken(str(exc) or "a worker process stopped") from exc
        finally:
            for future in running:
                future.cancel()
            self._active -= 1
            self._rest()

    def _rest(self) -> None:
        """Stop the workers if no work comes for IDLE_S."""
        if self._executor is not None and self._idle is None and not self._active:
            self._idle = asyncio.get_running_loop().call_later(IDLE_S, self.shutdown)

    def shutdown(self) -> None:
        """Stop the workers (queued batches are dropped); the next big pass starts new ones."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def _start(workers: int) -> ProcessPoolExecutor:
    """A pool of workers, every one started before this returns."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
    else:
        context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                   initializer=closed_scripts.worker_started, initargs=(os.getpid(),))
    # workers start on demand: as many calls at once as workers start them all
    list(executor.map(closed_scripts.ready, [workers] * workers))
    return executor
