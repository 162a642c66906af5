"""Analysing the closed scripts of the language server's workspace pass: the one function that
does it, run in the server's process or in a worker process of its pool, with the same result.

No pygls or lsprotocol here: lsp/closed_reports.py turns each analysis into its report, in the
same process. What a worker needs to analyse a script as the server would travels with each
batch: the script's project root (sourced files outside it are not read), the open documents'
texts (a sourced file that is open is read from the editor, unsaved edits included) and the
session's generation (a new one means the project's code or configuration changed, so the
cached project index is dropped).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from packgate.core.settings import Settings

# Workers run below the server's priority: a keystroke's analysis comes first on a busy machine.
WORKER_NICENESS = 5
PARENT_CHECK_S = 1.0  # how often a worker looks whether the server is gone


@dataclass(frozen=True)
class ScriptJob:
    """One closed script to analyse."""

    path: str
    root: str | None  # the project root sourced files must lie in (the server's root_for)
    settings: Settings


@dataclass(frozen=True)
class Batch:
    """Scripts analysed together, with what their analyses read besides the disk."""

    jobs: tuple[ScriptJob, ...]
    overlay: Mapping[str, str]  # path -> the text of each open document
    generation: int  # the server session's: the project index is read again when it changes


_generation: int | None = None  # the generation this process's project index belongs to


def analyse_batch(batch: Batch) -> Iterator[tuple[ScriptJob, Any]]:
    """Every script of a batch in turn, with its Analysis (None: unreadable), as a worker runs them."""
    global _generation
    if batch.generation != _generation:
        from packgate.core import project
        project.invalidate()
        _generation = batch.generation
    loaders: dict[str | None, Any] = {}
    for job in batch.jobs:
        yield job, analyse_script(job, batch.overlay, loaders)


def analyse_script(job: ScriptJob, overlay: Mapping[str, str],
                   loaders: dict[str | None, Any] | None = None) -> Any:
    """One closed script's Analysis (None: the file could not be read), sourced files followed
    inside its root, open documents' texts first."""
    from packgate.core.engine import analyze
    from packgate.core.files import decode, read_file
    from packgate.core.sourced import SourceLoader
    data, _reason = read_file(job.path)
    if data is None:
        return None
    loaders = {} if loaders is None else loaders
    if job.root not in loaders:
        loaders[job.root] = SourceLoader(job.root, overlay=overlay).load
    return analyze(decode(data)[0], path=job.path, settings=job.settings, revalidate=False,
                   loader=loaders[job.root])


def ready(_workers: int) -> int:
    """A worker's answer once it is up (the pool waits for every worker before its first pass)."""
    import os

    import packgate.core.engine  # noqa: F401  (preloaded by a fork server; imported here when spawned)
    return os.getpid()


def worker_started(server: int) -> None:
    """A worker's first step: its standard input and output are the server's protocol stream,
    so they are pointed at /dev/null (nothing a worker prints can corrupt a message); it yields
    the CPU to the server's process, which answers the keystrokes; and it ends when the server
    does. A server killed outright would otherwise leave it waiting for work forever, and the
    fork server with it (each worker holds the pipe whose end tells the fork server to stop)."""
    import os
    import threading
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()


def _end_with(server: int) -> None:
    import os
    import time
    born = process_start(server)
    while True:
        time.sleep(PARENT_CHECK_S)
        try:
            os.kill(server, 0)  # no signal sent: only whether the process exists (and is ours)
        except OSError:
            os._exit(0)
        if process_start(server) != born:  # the server is gone and another process got its pid
            os._exit(0)


def process_start(pid: int) -> int | None:
    """When a process started (Linux: field 22 of /proc/PID/stat, in clock ticks since boot),
    or None where that cannot be read: together with the pid it names one process, even after
    the pid is reused."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces or parentheses itself
    fields = data[data.rfind(b")") + 2:].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None
