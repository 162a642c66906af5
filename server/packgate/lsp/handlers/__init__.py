"""Every request and notification packgate answers, and the handler of each: the one registry.

One module per family: ``lifecycle`` (initialize, initialized, shutdown, exit), ``configuration`` (settings,
watched files, workspace folders), ``documents`` (open, change, save, close), ``diagnostics``
(pulled, per document and for the workspace), ``hover``, ``code_actions``, ``navigation``
(definition, references), ``launches`` (inlay hints, the status bar's launch summaries),
``completion`` and ``commands`` (workspace/executeCommand: ``COMMANDS``). Each handler gets the document from the server, calls the core and converts
the answer with ``packgate.lsp.convert``; ``guard.guarded`` turns an exception into a log entry
and an empty answer. To answer one more request: a handler in its family's module, one line here.
"""

from __future__ import annotations

from typing import Any, Callable

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.lsp.handlers import (code_actions, commands, completion, configuration, diagnostics, documents,
                                   hover, launches, lifecycle, navigation)

HANDLERS: tuple[tuple[str, Any, Callable[..., Any]], ...] = (
    (types.INITIALIZE, None, lifecycle.initialize),
    (types.INITIALIZED, None, lifecycle.initialized),
    (types.SHUTDOWN, None, lifecycle.shutdown),
    (types.EXIT, None, lifecycle.exit_server),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, None, configuration.did_change_configuration),
    (types.TEXT_DOCUMENT_DID_OPEN, None, documents.did_open),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, documents.did_change),
    (types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False), documents.did_save),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, documents.did_close),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, configuration.did_change_watched_files),
    (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, None, configuration.did_change_workspace_folders),
    # interFileDependencies: a script's diagnostics change when a file it sources does.
    (types.TEXT_DOCUMENT_DIAGNOSTIC,
     types.DiagnosticOptions(identifier="packgate", inter_file_dependencies=True, workspace_diagnostics=True),
     diagnostics.document_diagnostic),
    (types.WORKSPACE_DIAGNOSTIC, None, diagnostics.workspace_diagnostic),
    (types.TEXT_DOCUMENT_HOVER, None, hover.hover),
    (types.TEXT_DOCUMENT_CODE_ACTION,
     types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, convert.FIX_ALL_KIND],
                             resolve_provider=False),
     code_actions.code_action),
    (types.TEXT_DOCUMENT_DEFINITION, None, navigation.definition),
    (types.TEXT_DOCUMENT_REFERENCES, None, navigation.references),
    (types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False), launches.inlay_hint),
    (types.TEXT_DOCUMENT_COMPLETION,
     types.CompletionOptions(trigger_characters=[" ", "="], resolve_provider=False), completion.completion),
    (launches.LAUNCH_SUMMARIES, None, launches.launch_summaries),
)

# workspace/executeCommand: command name -> handler (pygls lists them in executeCommandProvider)
COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    (commands.SHOW_LAUNCHES, commands.show_launches),
)


def register(server: Any) -> None:
    """Register every handler of HANDLERS and every command of COMMANDS on a pygls server."""
    for method, options, handler in HANDLERS:
        server.feature(method, options)(handler)
    for name, handler in COMMANDS:
        server.command(name)(handler)
