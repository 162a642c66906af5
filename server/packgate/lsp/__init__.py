"""packgate's language server: a thin pygls adapter over packgate.core.

`packgate lsp` runs ``serve_stdio()``, which imports the server and serves one client on
stdin/stdout (``server.start_tcp(host, port)`` for `--tcp`). ``convert`` holds every conversion
to protocol types, ``session`` the settings and the analysis cache. Nothing is imported here:
`packgate check` must not pay for the server.
"""

from __future__ import annotations


def serve_stdio() -> int:
    """Serve one client on stdin/stdout; the LSP exit code (0 after shutdown and exit)."""
    from packgate.lsp.server import start_io
    return start_io()

