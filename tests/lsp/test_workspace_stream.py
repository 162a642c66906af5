"""workspace/diagnostic over a bigger tree (issue 19): partial results, the scan limit setting,
cancellation, and the worker processes giving what the server's own process gives."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pygls.uris import to_fs_path as to_fs_path

from lsp_helpers import PULLING, capabilities, codes, config, init_params, open_doc, session, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
SCRIPTS = 40  # more than POOL_MIN_FILES: with PACKGATE_JOBS=2 the pass uses the worker processes
POOL, IN_PROCESS = {"PACKGATE_JOBS": "2"}, {"PACKGATE_JOBS": "1"}


def tree(root: Path, count: int = SCRIPTS) -> list[str]:
    """count launchers in team folders; every third sources the team's env file. Returns their URIs."""
    uris = []
    for i in range(count):
        folder = root / f"team_{i % 4}" / f"exp_{i:03d}"
        folder.mkdir(parents=True)
        (root / f"team_{i % 4}" / "env.sh").write_text("export OFFLINE_PACKING_BMR=1\n")
        body = "source ../env.sh\n" if i % 3 == 0 else f"export OFFLINE_PACKING_BMR={i % 2}\n"
        (folder / "train.sh").write_text("#!/bin/bash\n" + body + LAUNCH)
        uris.append((folder / "train.sh").as_uri())
    return uris + [(root / f"team_{t}" / "env.sh").as_uri() for t in range(min(4, count))]


def params(partial=None, work=None, previous=()) -> types.WorkspaceDiagnosticParams:
    return types.WorkspaceDiagnosticParams(
        previous_result_ids=[types.PreviousResultId(uri=u, value=v) for u, v in previous],
        partial_result_token=partial, work_done_token=work)


def streamed(client, token) -> list[dict]:
    """The report items the server sent as partial results for token (as JSON)."""
    return [item for value in client.partial_results.get(token, []) for item in value["items"]]


def shape(report) -> list[tuple]:
    """What a report says, comparable across servers (result ids differ between sessions)."""
    return [(d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.message,
             [(r.location.uri, r.location.range.start.line, r.message) for r in d.related_information or ()],
             d.data) for d in report.items]


@pytest.mark.parametrize("env", [POOL, IN_PROCESS], ids=["pool", "in-process"])
async def test_partial_results_cover_every_script_once(tmp_path, env):
    expected = tree(tmp_path)
    async with session(capabilities(PULLING), folders=[tmp_path], env=env) as client:
        client.progress_reports["work"] = []
        answer = await client.workspace_diagnostic_async(params("partial", "work"))
        items = streamed(client, "partial")
        assert len(client.partial_results["partial"]) >= 2  # streamed in batches, not in one go
        assert list(answer.items) == []  # once partial results were sent, the answer carries none
        uris = [item["uri"] for item in items]
        assert sorted(uris) == sorted(expected)  # every script, each exactly once
        assert {item["kind"] for item in items} == {"full"}
        kinds = [type(v).__name__ for v in client.progress_reports["work"]]
        assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd", kinds

        # polled again with the ids it got: every report streamed as unchanged, none analysed again
        ids = [(item["uri"], item["resultId"]) for item in items]
        again = await client.workspace_diagnostic_async(params("second", previous=ids))
        assert list(again.items) == []
        assert sorted(i["uri"] for i in streamed(client, "second")) == sorted(expected)
        assert {i["kind"] for i in streamed(client, "second")} == {"unchanged"}


async def test_without_a_partial_result_token_one_answer_holds_everything(tmp_path):
    expected = tree(tmp_path)
    async with session(capabilities(PULLING), folders=[tmp_path], env=POOL) as client:
        answer = await client.workspace_diagnostic_async(params())
        assert sorted(item.uri for item in answer.items) == sorted(expected)
        assert client.partial_results == {}


async def test_the_pool_reports_what_the_server_process_reports(tmp_path):
    expected = tree(tmp_path)
    env_file = tmp_path / "team_0" / "env.sh"
    # open, unsaved: the scripts sourcing it are analysed with this text, not the disk's
    unsaved = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=true\n"
    answers = []
    for env in (POOL, IN_PROCESS):
        async with session(capabilities(PULLING), folders=[tmp_path], env=env) as client:
            open_doc(client, unsaved, uri=env_file.as_uri())
            await client.workspace_diagnostic_async(params())  # the first pass starts the workers
            for uri in expected:  # every script changed on disk since: all analysed again
                path = Path(to_fs_path(uri))
                os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
            client.progress_reports["work"] = []
            answer = await client.workspace_diagnostic_async(params(work="work"))
            answers.append({item.uri: shape(item) for item in answer.items})
            end = client.progress_reports["work"][-1].message
            closed = len(expected) - 1  # the env file is open
            assert end == f"{len(expected)} scripts" + (f", {closed} analysed in worker processes" if env is POOL else "")
    pooled, here = answers
    assert set(pooled) == set(expected)
    assert pooled == here
    sourcing = (tmp_path / "team_0" / "exp_000" / "train.sh").as_uri()
    assert [c for c, *_ in pooled[sourcing]] == ["PG005"]  # the open text's invalid value, seen through source
    plain = (tmp_path / "team_1" / "exp_001" / "train.sh").as_uri()
    assert [c for c, *_ in pooled[plain]] == ["PG001"]


async def test_the_scan_limit_is_a_setting_and_the_user_is_told_once(tmp_path):
    tree(tmp_path, 12)
    options = {"packgate": {"workspace.maxScripts": 5}}
    async with session(capabilities(PULLING), options, folders=[tmp_path], env=IN_PROCESS) as client:
        answer = await client.workspace_diagnostic_async(params())
        assert len(answer.items) == 5
        told = [m.message for m in client.messages if "packgate.workspace.maxScripts" in m.message]
        assert len(told) == 1 and "after 5 shell scripts" in told[0], [m.message for m in client.messages]
        await client.workspace_diagnostic_async(params())
        assert [m.message for m in client.messages if "maxScripts" in m.message] == told  # once

        # the editor lifts the limit: every script, nothing more to tell
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"packgate": {"workspace": {"maxScripts": 0}}}))
        answer = await client.workspace_diagnostic_async(params())
        assert len(answer.items) == 12 + 4


async def test_an_invalid_limit_is_reported_and_the_default_kept(tmp_path):
    expected = tree(tmp_path, 6)
    async with session(capabilities(PULLING), {"packgate": {"workspace.maxScripts": -3}}, folders=[tmp_path],
                       env=IN_PROCESS) as client:
        answer = await client.workspace_diagnostic_async(params())
        assert sorted(item.uri for item in answer.items) == sorted(expected)
        assert any("invalid packgate.workspace.maxScripts -3" in m.message for m in client.messages)


@pytest.mark.parametrize("env", [POOL, IN_PROCESS], ids=["pool", "in-process"])
async def test_cancelling_the_request_stops_the_work(tmp_path, env):
    expected = tree(tmp_path, 160)
    async with session(capabilities(PULLING), folders=[tmp_path], env=env) as client:
        answer = asyncio.ensure_future(client.protocol.send_request_async(types.WORKSPACE_DIAGNOSTIC, params("partial"),
                                                                          msg_id="workspace-1"))
        await wait_until(lambda: client.partial_results.get("partial"), timeout=30)
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="workspace-1"))
        with pytest.raises(JsonRpcRequestCancelled):
            await answer
        after_cancel = len(streamed(client, "partial"))
        await asyncio.sleep(0.5)
        assert len(streamed(client, "partial")) == after_cancel < len(expected)  # nothing more came
        # the server goes on answering, and a new pass completes the tree
        fresh = await client.workspace_diagnostic_async(params())
        assert sorted(item.uri for item in fresh.items) == sorted(expected)


async def test_closed_scripts_keep_their_findings_in_the_pool(tmp_path):
    tree(tmp_path)
    async with session(capabilities(PULLING), folders=[tmp_path], env=POOL) as client:
        answer = await client.workspace_diagnostic_async(params())
        found = {item.uri: codes(item.items) for item in answer.items}
        assert found[(tmp_path / "team_1" / "exp_001" / "train.sh").as_uri()] == ["PG001"]
        assert found[(tmp_path / "team_2" / "exp_002" / "train.sh").as_uri()] == []  # BMR=0: nothing on
        assert found[(tmp_path / "team_3" / "exp_003" / "train.sh").as_uri()] == ["PG001"]  # BMR from env.sh


@pytest.mark.parametrize("env", [POOL, IN_PROCESS], ids=["pool", "in-process"])
async def test_each_folder_s_configuration_applies(tmp_path, env):
    tree(tmp_path)
    (tmp_path / "team_1" / ".packgate.toml").write_text('ignore = ["PG001"]\n')
    (tmp_path / "pyproject.toml").write_text('[tool.packgate]\nseverity = {PG001 = "hint"}\n')
    (tmp_path / "team_3" / "exp_003" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # not packgate's
    async with session(capabilities(PULLING), folders=[tmp_path], env=env) as client:
        answer = await client.workspace_diagnostic_async(params())
        found = {item.uri: [(d.code, d.severity) for d in item.items] for item in answer.items}
        assert found[(tmp_path / "team_1" / "exp_001" / "train.sh").as_uri()] == []  # its team ignores PG001
        hint = [("PG001", types.DiagnosticSeverity.Hint)]
        assert found[(tmp_path / "team_3" / "exp_003" / "train.sh").as_uri()] == hint  # the root's, past a pyproject
        assert found[(tmp_path / "team_1" / "exp_005" / "train.sh").as_uri()] == []
        assert found[(tmp_path / "team_2" / "exp_006" / "train.sh").as_uri()] == hint  # sources env.sh: BMR=1


def children(pid: int) -> set[int]:
    """The child processes of pid (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found.update(int(c) for c in task.read_text().split())
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc")
async def test_no_worker_outlives_a_server_killed_outright(tmp_path):
    tree(tmp_path)
    client = await config(env=POOL).start()
    try:
        await client.initialize_session(init_params(capabilities(PULLING), folders=[tmp_path]))
        client.progress_reports["work"] = []
        await client.workspace_diagnostic_async(params(work="work"))
        assert "analysed in worker processes" in client.progress_reports["work"][-1].message
        spawned = children(client._server.pid)
        workers = {w for p in spawned for w in children(p)}
        assert spawned and len(workers) == 2, (spawned, workers)
        client._server.kill()  # no shutdown, no exit: as an editor that kills its server
        await client._server.wait()
        await wait_until(lambda: not any(Path(f"/proc/{p}").exists() for p in spawned | workers), timeout=10)
    finally:
        if client._server.returncode is None:
            client._server.kill()
        await client.stop()
