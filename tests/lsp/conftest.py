"""Fixtures for the end-to-end LSP tests: a real `packgate lsp` process per client capability set."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).parent))

from lsp_helpers import CLIENTS, capabilities, config, encoding_of, init_params  # noqa: E402



@pytest_lsp.fixture(config=config(), params=CLIENTS, scope="session")
async def client(lsp_client: LanguageClient, request):
    """One server per test session and client capability set (lsp_helpers.CLIENTS)."""
    result = await lsp_client.initialize_session(init_params(capabilities(request.param)))
    lsp_client.encoding = encoding_of(lsp_client, result)  # type: ignore[attr-defined]
    lsp_client.name = request.param  # type: ignore[attr-defined]
    lsp_client.server_capabilities = result.capabilities  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()
