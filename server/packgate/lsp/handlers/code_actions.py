"""textDocument/codeAction: the quick fixes of the diagnostics in range, and fix-all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.core.findings import NoticeKind
from packgate.lsp.guard import guarded

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


@guarded(list)
def code_action(ls: PackgateServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Quick fixes of the diagnostics in range (rule fixes, disable actions) and fixAll."""
    uri, only = params.text_document.uri, params.context.only
    doc, entry = ls.document(uri), ls.entry(uri, full=False)
    if doc is None or entry is None:
        return []
    actions: list[types.CodeAction] = []
    if convert.wants_kind(only, types.CodeActionKind.QuickFix.value):
        current = ls.diagnostics(uri, entry)
        for sent, fresh in diagnostics_in(params, doc.version, current):
            actions += convert.quick_fixes(fresh, uri, doc.version, ls.client, attach=sent)
        crlf = next((d for d in current if isinstance(d.data, dict) and d.data.get("notice") == NoticeKind.CRLF.value
                     and convert.range_overlaps(d.range, params.range)), None)
        if crlf is not None:  # CRLF line ends: "convert the file to LF", built only when asked for
            from packgate.core.notices import crlf_edits
            source = entry.analysis.source
            actions.append(convert.to_lf_action(crlf_edits(source), source, uri, doc.version, ls.client,
                                                entry.settings.lang, crlf))
    automatic = params.context.trigger_kind == types.CodeActionTriggerKind.Automatic
    if convert.wants_kind(only, convert.FIX_ALL_KIND) and not (automatic and not only):
        # fixAll re-analyses until it converges: only when asked (a source action, or on save)
        fix_all = convert.fix_all_action([ls.session.fix_all(uri, entry)], entry.analysis.source,
                                         uri, doc.version, ls.client, entry.settings.lang)
        actions += [fix_all] if fix_all else []
    return actions


def diagnostics_in(params: types.CodeActionParams, version: int | None,
                   current: list[types.Diagnostic]) -> list[tuple[types.Diagnostic, types.Diagnostic]]:
    """(as the client sent it, with current data) for packgate's diagnostics in the request."""
    sent = [d for d in params.context.diagnostics if convert.is_ours(d)] or \
        [d for d in current if convert.range_overlaps(d.range, params.range)]
    pairs = []
    for diag in sent:
        if convert.data_version(diag) == version:
            pairs.append((diag, diag))
        else:  # data from an older version, or none: the same finding in the current analysis
            fresh = next((d for d in current if d.code == diag.code and d.range == diag.range), None)
            pairs += [(diag, fresh)] if fresh is not None else []
    return pairs
