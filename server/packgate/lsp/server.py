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


def start_tcp(host: str, port: int) -> int:
    """Serve on a TCP socket (`packgate lsp --tcp --host H --port P`): 0 when the client is
    done, 2 with one line on stderr when the socket cannot be opened (a port in use or not
    allowed, an unknown host)."""
    import sys
    try:
        transport.serve_tcp(create_server(), host, port)
    except (OSError, OverflowError) as exc:  # socket.gaierror is an OSError
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        print(f"packgate lsp: cannot listen on {host}:{port}: {reason}", file=sys.stderr)
        return 2
    return 0
