"""workspace/executeCommand: the commands the server offers (pygls advertises them in
`executeCommandProvider`).

``packgate.showLaunches`` with arguments ``[uri]`` or ``[uri, {"format": "text"|"json",
"env": "read"|"all"}]``: what each launch of the open document sees, per distinct path (the
text `packgate launches` prints, or its json object), for the client to show beside the script.
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING, Any

from packgate.lsp.session import path_of

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer

SHOW_LAUNCHES = "packgate.showLaunches"
_FORMATS = ("text", "json")


def show_launches(ls, *arguments: Any) -> Any:  # pygls resolves the hints: `ls` stays bare
    """What each launch of the document sees: text (default) or the json object; None when the
    document is not open or the arguments are not understood (said in the client's log)."""
    try:
        return _show_launches(ls, list(arguments))
    except Exception:
        ls.log(f"packgate: {SHOW_LAUNCHES} failed\n{traceback.format_exc()}", "error")
        return None


def _show_launches(ls: PackgateServer, arguments: list) -> Any:
    from packgate.core.launch_render import as_json, as_text
    from packgate.core.launch_view import EnvScope, launches_of
    uri = arguments[0] if arguments else None
    if isinstance(uri, dict):  # a client that sends {"uri": ...} (a TextDocumentIdentifier)
        uri = uri.get("uri")
    options = arguments[1] if len(arguments) > 1 and isinstance(arguments[1], dict) else {}
    fmt, env = options.get("format", "text"), options.get("env", "read")
    if not isinstance(uri, str) or fmt not in _FORMATS or env not in ("read", "all"):
        ls.log(f"packgate: {SHOW_LAUNCHES} takes [uri, {{format: text|json, env: read|all}}], "
               f"not {arguments!r}", "warning")
        return None
    doc = ls.document(uri)
    if doc is None:
        ls.log(f"packgate: {SHOW_LAUNCHES}: {uri} is not open", "warning")
        return None
    problems: list[str] = []
    settings = ls.session.document_settings(doc.uri, problems, refresh=False)
    path = path_of(doc.uri)
    view = launches_of(doc.source, path=path, settings=settings, scope=EnvScope(env),
                       revalidate=False, **ls.session.loader_option(path))
    if isinstance(view, str):  # not analysed (too large): say why in what the user sees
        return {"error": view} if fmt == "json" else f"{path or uri}: {view}\n"
    return as_json(view) if fmt == "json" else as_text(view)
