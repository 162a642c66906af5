"""A worker of the workspace pass ends when the server that started it does (closed_scripts._end_with),
also when the server's pid has been given to another process since."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from packgate.core.closed_scripts import process_start

pytestmark = pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/stat"), reason="no /proc on this system")


def test_a_process_is_named_by_its_pid_and_its_start(tmp_path):
    mine = process_start(os.getpid())
    assert isinstance(mine, int) and mine == process_start(os.getpid())
    # a command name with spaces and parentheses does not shift the fields read after it
    odd = tmp_path / "a) b (c"
    odd.symlink_to(sys.executable)
    child = subprocess.Popen([str(odd), "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        with open(f"/proc/{child.pid}/stat", "rb") as stat:
            assert b"(a) b (c)" in stat.read()
        assert mine <= process_start(child.pid) < mine + 10_000_000
    finally:
        child.communicate(b"")
    assert process_start(child.pid) is None  # gone (and reaped)


def test_a_worker_ends_when_the_server_pid_now_names_another_process(monkeypatch):
    import packgate.core.closed_scripts as closed

    starts = iter([100, 100, 250])  # the server's start at first, then another process under its pid
    monkeypatch.setattr(closed, "process_start", lambda pid: next(starts))
    monkeypatch.setattr(closed, "PARENT_CHECK_S", 0)
    monkeypatch.setattr(os, "kill", lambda pid, sig: None)  # the pid exists all along

    class Ended(Exception):
        pass

    def end(code):
        raise Ended(code)

    monkeypatch.setattr(os, "_exit", end)
    with pytest.raises(Ended):
        closed._end_with(12345)
