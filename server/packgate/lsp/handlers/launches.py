"""The verdict at each launch: inlay hints, and `packgate/launchSummaries` for the status bar."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.lsp.guard import guarded

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer

LAUNCH_SUMMARIES = "packgate/launchSummaries"


@guarded(list)
def inlay_hint(ls: PackgateServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """After each launch command: the gate combination it sees and the verdict, in the messages' language."""
    entry = ls.entry(params.text_document.uri, full=False)  # the summaries survive slimming
    if entry is None:
        return []
    return convert.inlay_hints(entry.analysis.launch_summaries, entry.analysis.source, ls.client.encoding,
                               params.range)


@guarded()
def launch_summaries(ls: PackgateServer, params: Any) -> list[dict[str, Any]] | None:
    """`packgate/launchSummaries`: the verdict at each launch, for the VS Code status bar."""
    uri = convert.uri_of(params)
    entry = ls.entry(uri, full=False) if uri else None
    if entry is None:
        return None
    return convert.launch_summaries(entry.analysis.launch_summaries, entry.analysis.source, ls.client.encoding)
