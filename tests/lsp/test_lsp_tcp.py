"""`packgate lsp --tcp --host H --port P`: the same server over a socket."""

from __future__ import annotations

import asyncio
import socket
import sys

import pytest
from lsprotocol import types

from lsp_helpers import capabilities, codes, init_params, make_client, open_doc, pushed, server_env

pytestmark = pytest.mark.asyncio(loop_scope="session")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_tcp_serves_diagnostics():
    port = free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "packgate", "lsp", "--tcp", "--host", "127.0.0.1", "--port", str(port),
        env=server_env(), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    client = make_client()
    try:
        for _ in range(300):  # the server needs a moment to import and listen
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("packgate lsp --tcp never listened")
        await client.initialize_session(init_params(capabilities("visual_studio_code")))
        uri = open_doc(client, "export OFFLINE_PACKING_BMR=1\ntorchrun aiak_training_llm/train.py\n")
        assert "PG001" in codes(await pushed(client, uri, 1))
        await client.shutdown_async(None)
        client.exit(None)
        code = await asyncio.wait_for(server.wait(), 30)
        stderr = (await server.stderr.read()).decode("utf-8", "replace")
        assert code == 0, stderr
        assert "Traceback" not in stderr, stderr  # a normal exit is not an unhandled exception
    finally:
        await client.stop()
        if server.returncode is None:
            server.kill()
        await server.wait()
