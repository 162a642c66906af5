"""Python's cycle collector run between keystrokes, not during them.

An analysis leaves no reference cycles (it is freed as soon as it is dropped), but the collector
still walks every live object now and then, the kept analyses included: a pause of tens of
milliseconds in the middle of a didChange. So automatic collection is off, and a full
collection runs once the client has been quiet for IDLE_GC seconds (if more than GC_IDLE_MIN
objects were allocated since the last). Past GC_BACKLOG allocations while the client is busy
(opening a large document allocates that much), the objects so far are frozen instead
(gc.freeze: no pause, the collector skips them) and the next quiet moment unfreezes and
collects them. A workspace pass is not a quiet moment, though the client says nothing while it
waits for the answer: a full collection every IDLE_GC seconds of a pass walked the heap the pass
keeps growing (its reports) again and again, the server's main cost in it, so a pass freezes its
backlog too and one collection follows it.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Callable

IDLE_GC = 0.5  # seconds without a message before the cycle collector runs
GC_BACKLOG = 200_000  # allocations after which it runs even while the client is busy
GC_IDLE_MIN = 1_000  # ... and below which an idle server does not bother


def collect_when_idle(last_activity: Callable[[], float], busy: Callable[[], bool] = lambda: False) -> None:
    """Turn automatic collection off and collect whenever last_activity() is IDLE_GC seconds old
    and the server is not busy() with work of its own."""
    gc.disable()
    loop = asyncio.get_running_loop()

    def tick() -> None:
        quiet = time.monotonic() - last_activity() >= IDLE_GC and not busy()
        pending = gc.get_count()[0]
        if quiet and (pending > GC_IDLE_MIN or gc.get_freeze_count()):
            gc.unfreeze()
            gc.collect()
        elif pending > GC_BACKLOG:
            gc.freeze()
        loop.call_later(IDLE_GC, tick)

    loop.call_later(IDLE_GC, tick)
