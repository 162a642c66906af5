"""packgate's language server: a thin pygls adapter over packgate.core.

`packgate lsp` calls ``packgate.lsp.server.start_io()`` (or ``start_tcp(host, port)``);
``convert`` holds every conversion to protocol types, ``session`` the settings and the
analysis cache.
"""
