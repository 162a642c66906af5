"""Text document sync: open, change, save, close."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.lsp.guard import guarded
from packgate.lsp.handlers.configuration import is_project_file, project_changed
from packgate.lsp.session import path_of

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


@guarded()
def did_open(ls: PackgateServer, params: types.DidOpenTextDocumentParams) -> None:
    """Diagnose a newly opened document (re-checking the project's code for `profile = auto`)."""
    uri = params.text_document.uri
    ls.session.forget(uri)  # a reopened document may hold other text under the same version
    if ls.client.pull_diagnostics:
        ls.entry(uri, revalidate=True, full=False)  # the client pulls next: have the analysis ready
    else:
        ls.publish(uri, revalidate=True)
    ls.sources_changed([path_of(uri)])  # scripts sourcing it now read the editor's text


@guarded()
def did_change(ls: PackgateServer, params: types.DidChangeTextDocumentParams) -> None:
    """Diagnose the new version (the protocol has already applied the changes), and the scripts sourcing it."""
    ls.publish_soon(params.text_document.uri)
    ls.sources_changed([path_of(params.text_document.uri)])


@guarded()
def did_save(ls: PackgateServer, params: types.DidSaveTextDocumentParams) -> None:
    """A saved config or Python file changes the project; a saved script, the scripts sourcing it."""
    uri = params.text_document.uri
    if is_project_file(path_of(uri) or uri):
        project_changed(ls)
    else:
        ls.sources_changed([path_of(uri)])


@guarded()
def did_close(ls: PackgateServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document and clear its pushed diagnostics; scripts sourcing it read the disk again."""
    uri = params.text_document.uri
    ls.session.forget(uri)
    if not ls.client.pull_diagnostics:
        ls.text_document_publish_diagnostics(convert.publish_params(uri, None, []))
    ls.sources_changed([path_of(uri)])
