"""textDocument/hover: a gate's truth table and what this script's launch sees."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.lsp.guard import guarded

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


@guarded()
def hover(ls: PackgateServer, params: types.HoverParams) -> types.Hover | None:
    """The gate's truth table and what the launch sees: in the `lang` setting where one is set,
    else in both languages (not the client's locale: the table is bilingual by default)."""
    uri = params.text_document.uri
    entry = ls.entry(uri)
    if entry is None:
        return None
    source = entry.analysis.source
    offset = convert.to_offset(source, params.position, ls.client.encoding)
    lang = ls.session.hover_lang(uri, entry.settings)
    found = entry.analysis.hover(offset, lang=lang, markdown=ls.client.markdown)
    return convert.to_hover(*found, source, ls.client) if found else None
