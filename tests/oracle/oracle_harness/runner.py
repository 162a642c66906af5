"""One case end to end: its bash runs and packgate's view, then the disagreements."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .bashside import copy_case, run_script
from .cases import Case
from .compare import compare
from .packside import pack_view

WORKERS = 4  # bash runs wait on fork/exec and the stubs' files more than on the 2 CPUs


def check_case(case: Case, scratch: Path) -> tuple:
    """(runs, disagreements) of a case, each input run in its own folder under scratch."""
    runs = [run_script(case.script, list(case.extra), inp, scratch / f"input{i}")
            for i, inp in enumerate(case.inputs)]
    view = pack_view(copy_case(case.script, list(case.extra), scratch / "packgate"))
    text = case.script.read_text(encoding="utf-8", errors="replace")
    return runs, compare(runs, view, text, complete=not case.partial)


class Prefetch:
    """Every case checked in a few threads at the first request; each test then takes its own."""

    def __init__(self, cases: list, scratch: Path):
        self._cases = {c.key: c for c in cases}
        self._scratch = scratch
        self._futures: dict = {}
        self._pool = None

    def result(self, key: str) -> tuple:
        """(runs, disagreements) of the case named key."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(WORKERS)
            for k, c in self._cases.items():
                self._futures[k] = self._pool.submit(check_case, c, self._scratch / k.replace("/", "-"))
        return self._futures[key].result()

    def close(self) -> None:
        """Wait for the threads to end."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
