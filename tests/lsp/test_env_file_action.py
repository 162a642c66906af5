"""Over the wire: PG006's quick fix for deepspeed on several nodes edits another file, the
`.deepspeed_env` beside the script. A client that can create files gets documentChanges (a
CreateFile, then the file's TextDocumentEdit); one without documentChanges or without the
`create` resource operation gets `changes`. The action is never preferred (it is unsafe)."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_helpers import capabilities, code_actions, diagnostics, open_doc, session

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
          "deepspeed --num_nodes 2 aiak_training_llm/train.py --micro-batch-size 1\n")
LINES = "OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n"


async def env_action(client, tmp_path) -> types.CodeAction:
    """The one .deepspeed_env quick fix of the script opened from tmp_path."""
    uri = open_doc(client, SCRIPT, (tmp_path / "run.sh").as_uri())
    found = [d for d in await diagnostics(client, uri, 1) if d.code == "PG006"]
    assert len(found) == 2, found
    actions = []
    for diag in found:
        actions += [a for a in await code_actions(client, uri, diag.range, [diag],
                                                  only=[types.CodeActionKind.QuickFix])
                    if ".deepspeed_env" in a.title]
    [action] = actions
    assert not action.is_preferred
    return action


def _at(line: int, character: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=character),
                       end=types.Position(line=line, character=character))


async def test_a_client_that_creates_files_gets_create_then_the_edit(tmp_path):
    target = (tmp_path / ".deepspeed_env").as_uri()
    async with session(capabilities("visual_studio_code")) as client:
        action = await env_action(client, tmp_path)
    create, edit = action.edit.document_changes
    assert isinstance(create, types.CreateFile) and create.uri == target
    assert create.options.overwrite is False and create.options.ignore_if_exists is False
    assert isinstance(edit, types.TextDocumentEdit) and edit.text_document.uri == target
    assert [(e.range, e.new_text) for e in edit.edits] == [(_at(0, 0), LINES)]
    assert action.edit.changes is None


async def test_without_the_create_operation_the_edit_falls_back_to_changes(tmp_path):
    target = (tmp_path / ".deepspeed_env").as_uri()
    caps = capabilities("visual_studio_code", workspace__workspace_edit__resource_operations=None)
    async with session(caps) as client:
        action = await env_action(client, tmp_path)
    assert action.edit.document_changes is None
    assert {uri: [(e.range, e.new_text) for e in edits] for uri, edits in action.edit.changes.items()} == \
        {target: [(_at(0, 0), LINES)]}


async def test_an_existing_file_gets_a_text_edit_at_its_end(tmp_path):
    (tmp_path / ".deepspeed_env").write_text("NCCL_DEBUG=INFO\n", encoding="utf-8")
    target = (tmp_path / ".deepspeed_env").as_uri()
    caps = capabilities("visual_studio_code", workspace__workspace_edit__resource_operations=None)
    async with session(caps) as client:  # no create needed: documentChanges serve without it
        action = await env_action(client, tmp_path)
    [edit] = action.edit.document_changes
    assert isinstance(edit, types.TextDocumentEdit) and edit.text_document.uri == target
    assert [(e.range, e.new_text) for e in edit.edits] == [(_at(1, 0), LINES)]
