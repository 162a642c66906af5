"""PG009 unfollowed-source: a `source` / `.` the analysis could not follow, and why."""

from __future__ import annotations

from .base import Context

_KEYS = {"dynamic", "relative", "no-loader", "cycle", "depth", "refused"}


def check_pg009(ctx: Context) -> None:
    """One information finding per source command that was not followed."""
    for start, end, (key, detail) in ctx.flow.unfollowed:
        if key not in _KEYS:
            continue
        msg = ctx.text("PG009", "messages", key, detail=detail)
        ctx.emit("PG009", msg, start, end, dedupe=(start, end, key))
