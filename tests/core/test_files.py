"""core/files.py: one idea of a shell script, one walk, one reader for check, the server and `source`."""

import os
import time

import pytest

from packgate import Settings, analyze
from packgate.cli.check import discover
from packgate.core import files
from packgate.core.sourced import SourceLoader
from packgate.lsp import workspace

EN = Settings(lang="en")
LAUNCH = "torchrun train.py --micro-batch-size 1\n"


def test_what_counts_as_a_shell_script(tmp_path):
    cases = {
        "a.sh": ("echo\n", True), "b.bash": ("echo\n", True),
        "c": ("#!/bin/bash\necho\n", True), "d": ("#!/usr/bin/env bash\n", True),
        "e": ("#!/bin/sh\n", True), "f": ("#! /usr/bin/env sh -e\n", True),
        "g": ("#!/usr/bin/env python3\n", False), "h": ("echo no shebang\n", False),
        "i.py": ("#!/bin/bash\n", False), "j.zsh": ("#!/bin/bash\n", False),
        "k": ("\n#!/bin/bash\n", False),
    }
    for name, (text, expected) in cases.items():
        (tmp_path / name).write_text(text)
        assert files.is_shell_script(str(tmp_path / name)) is expected, name


def test_a_fifo_without_an_extension_is_not_opened_to_sniff_it(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    started = time.monotonic()
    assert files.is_shell_script(str(tmp_path / "pipe")) is False
    assert time.monotonic() - started < 2


def test_walk_is_sorted_and_skips_tool_folders(tmp_path):
    for rel in ("b.sh", "a.sh", "sub/c.sh", ".git/hooks/pre-commit.sh", "node_modules/x/y.sh",
                ".venv/bin/activate.sh", "sub/__pycache__/z.sh", "sub/.tox/t.sh"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("echo\n")
    found = [os.path.relpath(p, tmp_path) for p in files.walk(str(tmp_path))]
    assert found == ["a.sh", "b.sh", "sub/c.sh"]


def test_check_and_the_server_list_the_same_scripts(tmp_path):
    for rel, text in (("run.sh", "echo\n"), ("bin/train", "#!/bin/bash\n"), ("bin/tool", "#!/usr/bin/python\n"),
                      ("README.md", "# x\n"), (".git/x.sh", "echo\n")):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    problems: list = []
    by_check = discover([str(tmp_path)], problems)
    by_server, cut = workspace.scripts([str(tmp_path.resolve())])
    assert problems == [] and not cut
    assert [os.path.relpath(p, tmp_path) for p in by_check] == ["run.sh", "bin/train"]
    assert [os.path.relpath(p, tmp_path.resolve()) for p in by_server] == ["run.sh", "bin/train"]


@pytest.mark.parametrize("data,reason", [
    (b"\0export A=1\n", files.BINARY),
    (b"#" * 9000 + b"\n\0\n", files.BINARY),  # a NUL anywhere, not only in the first 8 KiB
    (b"#" * (files.MAX_BYTES + 1), "too large to analyze"),
])
def test_read_file_refuses_binary_and_oversized_files(tmp_path, data, reason):
    path = tmp_path / "x.sh"
    path.write_bytes(data)
    got, why = files.read_file(str(path))
    assert got is None and why.startswith(reason)


def test_read_file_refuses_special_files(tmp_path):
    os.mkfifo(tmp_path / "pipe.sh")
    (tmp_path / "environ.sh").symlink_to("/proc/self/environ")
    started = time.monotonic()
    assert files.read_file(str(tmp_path / "pipe.sh")) == (None, files.NOT_REGULAR)
    assert files.read_file(str(tmp_path / "environ.sh")) == (None, files.KERNEL_FILE)
    assert files.read_file("/dev/zero") == (None, files.KERNEL_FILE)
    assert files.read_file(str(tmp_path / "missing.sh"))[1].startswith("not found (")
    assert time.monotonic() - started < 2


def test_invalid_utf8_is_read_and_replaced():
    assert files.decode(b"export A=\xff1\n") == ("export A=\ufffd1\n", False)
    assert files.decode("export A=1 # 中文\n".encode()) == ("export A=1 # 中文\n", True)


# -- `source` reads through the same reader: where the two readers disagreed ------------------

def _sourcing(tmp_path, env: bytes):
    (tmp_path / "env.sh").write_bytes(env)
    main = tmp_path / "main.sh"
    text = "source ./env.sh\n" + LAUNCH
    main.write_text(text)
    return analyze(text, settings=EN, path=str(main), loader=SourceLoader(str(tmp_path)).load)


def test_a_sourced_file_with_a_nul_past_8_kib_is_binary_as_check_says(tmp_path):
    """Was: the loader looked for NUL in the first 8 KiB only, check in the whole file."""
    env = b"#" * 9000 + b"\n\0\nexport OFFLINE_PACKING_BMR=1\n"
    a = _sourcing(tmp_path, env)
    assert [f.code for f in a.findings] == ["PG009"]
    assert f"./env.sh: {files.BINARY}" in a.findings[0].message


def test_a_sourced_file_has_the_same_size_cap_as_a_checked_one(tmp_path):
    """Was: 1 MiB for a sourced file, 5 MiB for a checked one."""
    env = (b"#" * 1023 + b"\n") * 2048 + b"export OFFLINE_PACKING_BMR=1\n"  # 2 MiB in 2,049 lines
    a = _sourcing(tmp_path, env)
    assert [f.code for f in a.findings] == ["PG001"]  # followed: its gate is seen


def test_a_sourced_file_past_the_analysis_bounds_is_not_parsed(tmp_path):
    """Was: a sourced file skipped the bounds on lines and separators (1 MiB of `a|a|…` is
    about 1.6 GB of syntax tree)."""
    started = time.monotonic()
    a = _sourcing(tmp_path, b"a|" * (files.MAX_UNITS + 1) + b"a\n")
    assert time.monotonic() - started < 5
    [f] = a.findings
    assert f.code == "PG009" and "too large to analyze" in f.message and "the limit is 120000" in f.message


def test_a_sourced_special_file_gives_the_checks_reason(tmp_path):
    loader = SourceLoader(str(tmp_path))
    os.mkfifo(tmp_path / "pipe.sh")
    assert loader.load(str(tmp_path / "pipe.sh")) == (None, files.NOT_REGULAR)
    assert loader.load("/dev/stdin") == (None, files.KERNEL_FILE)
    assert loader.load("/proc/self/environ") == (None, files.KERNEL_FILE)


def test_display_path_spells_paths_as_pathlib_does():
    """`check` shows the paths it is given the way pathlib wrote them before it went (a cold start
    no longer imports pathlib): no `.` parts, no doubled or trailing slashes, `..` kept."""
    from pathlib import PurePosixPath
    samples = ["", ".", "./", "a", "a/", "./a", "a//b", "a/./b/.", "../x", "x/../y", "/", "//", "///",
               "//a", "///a/b", "/./a/", ".//.//a", "a b/c", "é/中文.sh", "~/x"]
    for raw in samples:
        assert files.display_path(raw) == str(PurePosixPath(raw)), raw


def test_walk_names_files_as_the_folder_was_given(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.sh").write_text("echo\n")
    monkeypatch.chdir(tmp_path)
    assert list(files.walk(".")) == ["sub/a.sh"]
    assert list(files.walk("./sub/")) == ["sub/a.sh"]
    assert list(files.walk(str(tmp_path) + "//sub")) == [f"{tmp_path}/sub/a.sh"]


def test_upward_ends_at_the_root():
    assert list(files.upward("/a/b")) == ["/a/b", "/a", "/"]
    assert list(files.upward("/")) == ["/"]
