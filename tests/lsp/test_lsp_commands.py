"""workspace/executeCommand over the wire: `packgate.showLaunches` answers with what each
launch of the open document sees (the text or the json of `packgate launches`)."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_helpers import open_doc

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = """#!/bin/bash
export OFFLINE_PACKING_BMR=1
export NCCL_DEBUG=INFO
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS:-1}"
"""


async def _run(client, *arguments):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="packgate.showLaunches", arguments=list(arguments)))


async def test_the_server_offers_the_command(client):
    provider = client.server_capabilities.execute_command_provider
    assert provider is not None and "packgate.showLaunches" in provider.commands


async def test_show_launches_answers_with_the_text(client):
    uri = open_doc(client, SCRIPT)
    text = await _run(client, uri)
    assert isinstance(text, str)
    assert ":4:1: torchrun -> aiak_training_llm/train.py" in text
    assert "argv: --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size <$MBS:-1>" in text
    assert any(row.split()[:3] == ["OFFLINE_PACKING_BMR", "1", "export"] for row in text.splitlines())


async def test_show_launches_answers_with_the_json(client):
    uri = open_doc(client, SCRIPT)
    doc = await _run(client, uri, {"format": "json", "env": "all"})
    (launch,) = doc["launches"]
    (path,) = launch["paths"]
    assert (launch["line"], launch["command"], path["label"]) == (4, "torchrun", "")
    assert path["env"]["NCCL_DEBUG"] == {"value": "INFO", "from": "export", "line": 3}
    assert path["argv"][-1] == "1"


async def test_a_document_that_is_not_open_or_bad_arguments_get_none(client):
    assert await _run(client, "file:///packgate-lsp-tests/never-opened.sh") is None
    assert await _run(client, open_doc(client, SCRIPT), {"format": "xml"}) is None
    assert await _run(client) is None
