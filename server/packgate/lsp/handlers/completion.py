"""textDocument/completion: gate names and values, the variables the workspace's code reads, the
options of a launch's parser, and `# packgate` comment keywords."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.lsp.guard import guarded

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


@guarded()
def completion(ls: PackgateServer, params: types.CompletionParams) -> list[types.CompletionItem] | None:
    """Gate names and the names the code reads after `export ` or where an assignment starts;
    `'1'` / `'0'` after `GATE=`; the parser's options on a trainer argument starting with `-`;
    keywords, rules and profiles in a `# packgate` comment."""
    from packgate.core.navigation import completions
    entry = ls.entry(params.text_document.uri)
    if entry is None:
        return None
    analysis = entry.analysis
    offset = convert.to_offset(analysis.source, params.position, ls.client.encoding)
    return convert.completion_items(completions(analysis, offset, entry.settings.lang), ls.client,
                                    analysis.source) or None
