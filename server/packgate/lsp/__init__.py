"""packgate's language server: a thin pygls adapter over packgate.core.

`packgate lsp` runs ``serve_stdio()``: ``fastinit`` answers the client's `initialize` while
pygls and lsprotocol are still being imported, then ``server.start_io()`` serves the session
(``start_tcp(host, port)`` for `--tcp`). ``convert`` holds every conversion to protocol types,
``session`` the settings and the analysis cache. Nothing is imported here: `packgate check`
and the early answer must not pay for the server.
"""

from __future__ import annotations


def serve_stdio() -> int:
    """Serve one client on stdin/stdout; the LSP exit code (0 after shutdown and exit)."""
    from packgate.lsp.fastinit import answer_initialize
    early = answer_initialize()  # before the import below, which takes most of a second
    from packgate.lsp.server import start_io
    return start_io(early)

