"""The floor of a keystroke over the wire: a bare pygls server that publishes a constant result.

    python benchmarks/bare_server.py DIAGNOSTICS.json

On every didOpen and didChange it publishes the diagnostics in the file (a JSON list, as
lsprotocol writes them: what packgate published for the document) with the document's
version, and analyses nothing. It writes them with packgate's converter (a diagnostic's
`data` as it is), as packgate's server does. A keystroke answered by it costs what pygls,
lsprotocol, the JSON and the pipe cost: what no analysis can go below
(lsp_bench.bare_keystrokes starts it).
"""

from __future__ import annotations

import gc
import json
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from packgate.lsp.convert import converter


def make_server(diagnostics: list) -> LanguageServer:
    """A pygls server that answers every didOpen and didChange with these diagnostics (lsprotocol JSON)."""
    server = LanguageServer("packgate-bench-bare-publisher", "1", converter_factory=converter)
    constant = converter().structure(diagnostics, list[types.Diagnostic])

    def publish(ls: LanguageServer, uri: str, version: int) -> None:
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=constant))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri, params.text_document.version)

    return server


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        server = make_server(json.load(handle))
    gc.disable()  # as packgate's server runs: no collection among pygls' objects lands in a keystroke
    server.start_io()
