"""The workspace scan's limits (settings, which one cut, the message), and the worker pool's
failure modes, without a client."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

import packgate.lsp.workspace as workspace
import packgate.lsp.workspace_diagnostics as workspace_diagnostics
from packgate.core.settings import EDITOR_ONLY_KEYS, Settings, editor_only, schema_for_clients
from packgate.lsp.pool import PoolBroken, ScriptPool
from packgate.lsp.session import section_of


class FakeServer:
    """Just enough of PackgateServer for one workspace pass over scripts with nothing to analyse."""

    def __init__(self, paths, cut):
        self.paths, self.cut, self.said = paths, cut, []
        self.checks = workspace.Checks()
        self.session = SimpleNamespace(generation=0, settings_for=lambda uri, problems: None)
        self.client = SimpleNamespace(encoding="utf-16", related_information=False)
        self.pool = ScriptPool()
        self.passes = 0  # workspace passes running (the cycle collector waits for them)

    def scan_limits(self):
        return workspace.ScanLimits(7, 70)

    async def scripts(self, uri=None, limits=None, on_count=None):
        return self.paths, self.cut

    def open_uris(self):
        return {}

    def roots(self):
        return []

    def overlay(self):
        return {}

    def say(self, problems):
        self.said.extend(problems)


def params():
    return SimpleNamespace(previous_result_ids=[], work_done_token=None, partial_result_token=None)


@pytest.mark.parametrize("cut, says", [(workspace.CUT_SCRIPTS, "after 7 shell scripts (the setting "
                                        "packgate.workspace.maxScripts)"),
                                       (workspace.CUT_FILES, "after looking at 70 files (the setting "
                                        "packgate.workspace.maxFiles)")])
def test_a_cut_scan_is_reported_with_the_setting_that_cut_it(cut, says):
    ls = FakeServer([], cut=cut)
    asyncio.run(workspace_diagnostics.check(ls, params()))
    assert len(ls.said) == 1 and says in ls.said[0], ls.said


def test_a_whole_scan_says_nothing():
    ls = FakeServer([], cut=None)
    asyncio.run(workspace_diagnostics.check(ls, params()))
    assert ls.said == []


def test_the_scan_stops_only_when_there_is_more(tmp_path: Path):
    for i in range(5):
        (tmp_path / f"s{i}.sh").write_text("true\n")
        (tmp_path / f"n{i}.txt").write_text("")
    root = [str(tmp_path)]
    assert workspace.scripts(root, workspace.ScanLimits(5, 0)) == (sorted(str(p) for p in tmp_path.glob("*.sh")), None)
    found, cut = workspace.scripts(root, workspace.ScanLimits(4, 0))
    assert len(found) == 4 and cut == workspace.CUT_SCRIPTS
    found, cut = workspace.scripts(root, workspace.ScanLimits(0, 3))
    assert cut == workspace.CUT_FILES and len(found) < 5
    assert workspace.scripts(root, workspace.ScanLimits(0, 0))[1] is None  # 0: no limit


def test_the_limits_come_dotted_or_nested_and_a_later_section_wins():
    problems: list[str] = []
    got = editor_only([section_of({"packgate.workspace.maxScripts": 3}, problems),
                       section_of({"packgate": {"workspace": {"maxFiles": 9}}}, problems)], problems)
    assert got == {"workspace.maxScripts": 3, "workspace.maxFiles": 9} and problems == []
    got = editor_only([{"workspace.maxScripts": 3}, {"workspace.maxScripts": 4}], problems)
    assert got["workspace.maxScripts"] == 4
    assert workspace.ScanLimits.of(editor_only([], problems)) == workspace.ScanLimits()


@pytest.mark.parametrize("bad", [-1, 2.5, "10", True, None])
def test_an_invalid_limit_keeps_the_one_below_and_says_so(bad):
    problems: list[str] = []
    got = editor_only([{"workspace.maxScripts": 12}, {"workspace.maxScripts": bad}], problems)
    assert got["workspace.maxScripts"] == 12
    assert problems == [f"invalid packgate.workspace.maxScripts {bad!r}; it must be a whole number of at "
                        "least 0; using 12"]


def test_the_limits_are_editor_settings_not_file_settings():
    schema = schema_for_clients()
    assert {f"packgate.{k}" for k in EDITOR_ONLY_KEYS} <= set(schema)
    problems: list[str] = []
    assert Settings().merged({"workspace": {"maxScripts": 3}}, problems, strict=True) == Settings()
    assert problems == ["packgate.workspace is an editor setting; configuration files do not set it"]


def test_a_worker_that_dies_breaks_the_pool_and_nothing_else():
    async def run() -> None:
        pool = ScriptPool(work=os._exit)  # the worker process ends at once, as when it is killed
        taken: list = []
        with pytest.raises(PoolBroken):
            await pool.run([3, 3, 3], 2, lambda batch, result: taken.append(result))
        assert taken == [] and pool.broken and not pool.running
        assert pool.workers_for(10_000) == 1  # the rest of the session analyses in process
        with pytest.raises(PoolBroken):
            await pool.start(2)
    asyncio.run(run())


def test_the_pool_takes_every_batch_and_stops_when_idle(monkeypatch):
    monkeypatch.setattr("packgate.lsp.pool.IDLE_S", 0.05)

    async def run() -> None:
        pool = ScriptPool(work=abs)
        taken: list = []
        await pool.run(range(-20, 0), 2, lambda batch, result: taken.append((batch, result)))
        assert sorted(taken) == [(b, -b) for b in range(-20, 0)]
        assert pool.running
        await asyncio.sleep(0.3)
        assert not pool.running  # no work for IDLE_S: the workers are gone
    asyncio.run(run())


def test_without_jobs_there_is_no_pool(monkeypatch):
    monkeypatch.setenv("PACKGATE_JOBS", "1")
    assert ScriptPool().workers_for(10_000) == 1
    monkeypatch.setenv("PACKGATE_JOBS", "3")
    assert ScriptPool().workers_for(10_000) == 3
    assert ScriptPool().workers_for(4) == 1  # too few scripts to pay for starting workers
