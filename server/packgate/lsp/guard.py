"""The wrapper every handler wears: an exception is logged to the client, never fatal."""

from __future__ import annotations

import functools
import inspect
import traceback
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


def guarded(fallback: Callable[[], Any] = lambda: None):
    """Log a handler's exception to the client and answer with fallback() instead of failing."""

    def wrap(fn):
        def report(ls: "PackgateServer") -> Any:
            ls.log(f"packgate: {fn.__name__} failed\n{traceback.format_exc()}", "error")
            return fallback()

        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def run_async(ls: "PackgateServer", params: Any) -> Any:
                try:
                    return await fn(ls, params)
                except Exception:
                    return report(ls)
            return run_async

        @functools.wraps(fn)
        def run(ls: "PackgateServer", params: Any) -> Any:
            try:
                return fn(ls, params)
            except Exception:
                return report(ls)
        return run

    return wrap
