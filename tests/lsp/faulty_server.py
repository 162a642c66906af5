"""`packgate lsp` with a core that raises on a marker: proves handler exceptions are logged, not fatal."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))

from packgate.lsp import server, session  # noqa: E402

MARKER = "PACKGATE_TEST_RAISE"
_analyze = session.analyze


def analyze(text, **kwargs):
    """The real analysis, except for texts holding the marker."""
    if MARKER in text:
        raise RuntimeError("injected failure in the core")
    return _analyze(text, **kwargs)


session.analyze = analyze
server.start_io()
