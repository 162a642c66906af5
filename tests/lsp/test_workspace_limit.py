"""workspace/diagnostic over a tree larger than the scan limit: the user is told, once."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import packgate.lsp.workspace as workspace
import packgate.lsp.workspace_diagnostics as workspace_diagnostics


class FakeServer:
    """Just enough of PackgateServer for one workspace pass over scripts with nothing to analyse."""

    def __init__(self, paths, cut):
        self.paths, self.cut, self.said = paths, cut, []
        self.checks = workspace.Checks()
        self.session = SimpleNamespace(generation=0, settings_for=lambda uri, problems: None)
        self.client = SimpleNamespace()

    async def scripts(self, uri=None):
        return self.paths, self.cut

    def open_uris(self):
        return {}

    def overlay(self):
        return {}

    def say(self, problems):
        self.said.extend(problems)


def params():
    return SimpleNamespace(previous_result_ids=[], work_done_token=None, partial_result_token=None)


def test_a_cut_scan_is_reported(monkeypatch):
    ls = FakeServer([], cut=True)
    asyncio.run(workspace_diagnostics.check(ls, params()))
    assert len(ls.said) == 1 and f"stops at {workspace.MAX_SCRIPTS} scripts" in ls.said[0]


def test_a_whole_scan_says_nothing():
    ls = FakeServer([], cut=False)
    asyncio.run(workspace_diagnostics.check(ls, params()))
    assert ls.said == []
