"""Pulled diagnostics: one document (textDocument/diagnostic) and the workspace (workspace/diagnostic)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

import packgate.lsp.convert as convert
import packgate.lsp.workspace_diagnostics as workspace_diagnostics
from packgate.lsp.guard import guarded

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


@guarded(lambda: convert.full_report([], None))
async def document_diagnostic(ls: PackgateServer, params: types.DocumentDiagnosticParams):
    """Pulled diagnostics; `unchanged` when the client already has this result. A pull that
    comes before the client's settings waits for them (as a push does: ls.publish)."""
    if not ls.settings_known:
        await ls.settings_awaited()
    uri = params.text_document.uri
    entry = ls.entry(uri, full=False)
    if entry is None:
        return convert.full_report([], None)
    if params.previous_result_id == entry.result_id:
        return convert.unchanged_report(entry.result_id)
    return convert.full_report(ls.diagnostics(uri, entry), entry.result_id)


@guarded(lambda: convert.workspace_report([]))
async def workspace_diagnostic(ls: PackgateServer, params: types.WorkspaceDiagnosticParams):
    """Every shell script of the workspace folders; open documents at their current version."""
    return convert.workspace_report(await workspace_diagnostics.check(ls, params))
