"""packgate's language server: the server assembled from its parts, and started.

The parts (ruff's server is the model):

- ``transport``: stdio (read by the event loop) and TCP;
- ``protocol``: pygls' protocol hardened against client mistakes, and LSP line breaks in didChange;
- ``language_server``: the server object the handlers share (client features, session, helpers);
- ``session``: the settings and one record per open document (its analysis cache);
- ``handlers/``: one module per request or notification family, and the one registry;
- ``workspace_diagnostics``: the workspace/diagnostic pass over closed scripts;
- ``convert``: every conversion to protocol types;
- ``memory``: the cycle collector run between keystrokes.

An exception in a handler is logged to the client (``window/logMessage``) and answered with an
empty result: the server never dies of one.
"""

from __future__ import annotations

import packgate.lsp.handlers as handlers
import packgate.lsp.transport as transport
from packgate.lsp.language_server import PackgateServer


def create_server() -> PackgateServer:
    """A server with every packgate handler registered (the registry is handlers.HANDLERS)."""
    server = PackgateServer()
    handlers.register(server)
    return server


def start_io() -> int:
    """Serve one client on stdin/stdout (what `packgate lsp` runs); the LSP exit code."""
    return transport.serve_stdio(create_server())


def start_tcp(host: str, port: int) -> None:
    """Serve on a TCP socket (`packgate lsp --tcp --host H --port P`)."""
    transport.serve_tcp(create_server(), host, port)
