"""The CLI contract: formats, exit codes, fixes, bad input (one clear line, never a traceback)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from packgate.cli.main import main
from packgate.core.rules import RULES

LEAK = "#!/bin/bash\n# 中文 😀\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"
CLEAN = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\nexport OFFLINE_PACKED_DATA='1'\ntorchrun train.py\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "leak.sh").write_text(LEAK, encoding="utf-8")
    (tmp_path / "clean.bash").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "launcher").write_text("#!/usr/bin/env bash\n" + LEAK.split("\n", 1)[1], encoding="utf-8")
    (tmp_path / "notes.txt").write_text(LEAK, encoding="utf-8")
    for skipped in (".git", "node_modules", ".venv"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "x.sh").write_text(LEAK, encoding="utf-8")
    return tmp_path


def test_text_format_and_exit_code(tree, capsys):
    rc, out, err = run(capsys, "check", str(tree / "leak.sh"), "--color", "never")
    assert rc == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{tree / 'leak.sh'}:3:8: error: ")
    assert first.endswith("[PG001 missing-companion]")
    assert "Found 1 problem" in out


def test_folder_discovery_skips_vendor_dirs_and_reads_shebangs(tree, capsys):
    rc, out, err = run(capsys, "check", str(tree), "--format", "json")
    data = json.loads(out)
    paths = sorted({Path(d["path"]).name for d in data["diagnostics"]})
    assert paths == ["launcher", "leak.sh"]
    assert data["summary"]["files"] == 3
    assert rc == 1


def test_clean_exit_zero(tree, capsys):
    rc, out, _ = run(capsys, "check", str(tree / "clean.bash"))
    assert rc == 0 and "No problems" in out


def test_json_schema(tree, capsys):
    rc, out, _ = run(capsys, "check", str(tree / "leak.sh"), "--format", "json")
    data = json.loads(out)
    assert set(data) == {"version", "diagnostics", "summary", "problems"} and data["problems"] == []
    d = data["diagnostics"][0]
    assert {k: d[k] for k in ("line", "column", "end_line", "end_column", "code", "rule", "severity")} == {
        "line": 3, "column": 8, "end_line": 3, "end_column": 27, "code": "PG001",
        "rule": "missing-companion", "severity": "error"}
    assert d["fixes"][0]["edits"][0]["text"].strip() == "export OFFLINE_PACKED_DATA='1'"
    assert data["summary"] == {"files": 1, "error": 1, "warning": 0, "information": 0, "hint": 0}


def test_sarif(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    rc, out, _ = run(capsys, "check", "leak.sh", "clean.bash", "--format", "sarif")
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    run0 = doc["runs"][0]
    assert [r["id"] for r in run0["tool"]["driver"]["rules"]] == [r.code for r in RULES]
    res = run0["results"][0]
    assert res["ruleId"] == "PG001" and res["level"] == "error"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "leak.sh"
    assert loc["region"]["startLine"] == 3 and loc["region"]["startColumn"] == 8
    assert res["fixes"][0]["artifactChanges"][0]["replacements"]


ODD_NAMES = {
    "训练 脚本.sh": ("训练 脚本.sh", "%E8%AE%AD%E7%BB%83%20%E8%84%9A%E6%9C%AC.sh"),
    os.fsdecode(b"name\xff.sh"): ("name\ufffd.sh", "name%FF.sh"),  # a name that is not UTF-8
}


@pytest.mark.parametrize("name", sorted(ODD_NAMES), ids=["cjk-space", "not-utf8"])
def test_machine_formats_stay_valid_with_odd_file_names(tmp_path, capsys, monkeypatch, name):
    """JSON, SARIF and GitHub output must be UTF-8 whatever the file is called; a SARIF
    artifact URI is percent-encoded (RFC 3986), the other formats show U+FFFD for a byte that
    is not UTF-8."""
    shown, uri = ODD_NAMES[name]
    try:
        (tmp_path / name).write_text(LEAK, encoding="utf-8")
    except (UnicodeEncodeError, OSError):
        pytest.skip("this file system cannot hold that name")
    monkeypatch.chdir(tmp_path)
    for fmt in ("json", "sarif", "github"):
        rc, out, err = run(capsys, "check", name, "--format", fmt)
        assert rc == 1 and not err
        out.encode("utf-8")  # strict: no lone surrogate, so the bytes written are UTF-8
        if fmt == "json":
            assert json.loads(out)["diagnostics"][0]["path"] == shown
        elif fmt == "sarif":
            res = json.loads(out)["runs"][0]["results"][0]
            assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
            assert res["fixes"][0]["artifactChanges"][0]["artifactLocation"]["uri"] == uri
        else:
            assert out.startswith(f"::error file={shown},line=3,col=8,")


def test_sarif_has_results_when_clean(tree, capsys):
    rc, out, _ = run(capsys, "check", str(tree / "clean.bash"), "--format", "sarif")
    assert json.loads(out)["runs"][0]["results"] == [] and rc == 0


def test_github_annotations(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    rc, out, _ = run(capsys, "check", "leak.sh", "--format", "github")
    assert out.startswith("::error file=leak.sh,line=3,col=8,endLine=3,endColumn=27,title=PG001 missing-companion::")


def test_fix_in_place_and_diff(tree, capsys):
    # the profile is named: under one `auto` only assumes, the gate fixes are unsafe
    # (tests/cli/test_day_one_fixes.py)
    target = tree / "leak.sh"
    rc, out, _ = run(capsys, "check", str(target), "--diff", "--profile", "ov2")
    assert "+export OFFLINE_PACKED_DATA='1'" in out
    assert target.read_text(encoding="utf-8") == LEAK  # --diff changes nothing
    rc, out, _ = run(capsys, "check", str(target), "--fix", "--color", "never", "--profile", "ov2")
    assert rc == 0
    assert "export OFFLINE_PACKED_DATA='1'\n" in target.read_text(encoding="utf-8")
    # says what it changed
    assert out.splitlines()[:2] == ["Fixed 1 problem in 1 file.", "No problems in 1 file."]
    rc, out, _ = run(capsys, "check", str(target), "--fix", "--color", "never", "--profile", "ov2")
    assert rc == 0 and out.splitlines()[0] == "No problems in 1 file."  # nothing left to fix: no such line
    assert "Fixed" not in out


def test_fix_keeps_crlf(tmp_path, capsys):
    target = tmp_path / "crlf.sh"
    target.write_bytes(LEAK.replace("\n", "\r\n").encode())
    run(capsys, "check", str(target), "--fix", "--profile", "ov2")
    data = target.read_bytes()
    assert b"export OFFLINE_PACKED_DATA='1'\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_stdin_and_stdin_filename(capsys, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(LEAK.encode())))
    rc, out, _ = run(capsys, "check", "-", "--stdin-filename", "stage2.sh")
    assert rc == 1 and out.startswith("stage2.sh:3:8:")


def test_lang_zh_and_both(tree, capsys):
    _, zh, _ = run(capsys, "check", str(tree / "leak.sh"), "--lang", "zh")
    assert "泄漏" in zh
    _, both, _ = run(capsys, "check", str(tree / "leak.sh"), "--lang", "both")
    assert "泄漏" in both and "attend" in both


def test_select_ignore_severity(tree, capsys):
    rc, out, _ = run(capsys, "check", str(tree / "leak.sh"), "--ignore", "missing-companion")
    assert rc == 0
    rc, out, _ = run(capsys, "check", str(tree / "leak.sh"), "--select", "PG002")
    assert rc == 0
    script = tree / "over.sh"
    script.write_text(CLEAN.replace("export OFFLINE_PACKING_BMR='1'", "export OFFLINE_PACKING_BMR=0\nexport OFFLINE_PACKING_BMR=1"))
    rc, out, _ = run(capsys, "check", str(script))
    assert rc == 0 and "PG008" in out  # information is reported; it fails a run only at --fail-level information
    assert run(capsys, "check", str(script), "--fail-level", "information")[0] == 1
    rc, out, _ = run(capsys, "check", str(script), "--severity", "warning", "--fail-level", "information")
    assert rc == 0


def test_profile_option(tmp_path, capsys):
    script = tmp_path / "v.sh"
    script.write_text("export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")
    rc, out, _ = run(capsys, "check", str(script), "--profile", "ov15")
    assert rc == 0, out
    rc, out, _ = run(capsys, "check", str(script))
    assert "PG002" in out and "PG001" in out


def test_config_file_upward(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.packgate]\nprofile = "ov15"\nlang = "zh"\n')
    sub = tmp_path / "scripts" / "stage"
    sub.mkdir(parents=True)
    script = sub / "v.sh"
    script.write_text("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")
    rc, out, _ = run(capsys, "check", str(script))
    assert "PG002" in out and "不读取" in out  # BMR is dead under ov15, message in Chinese


def test_packgate_toml_and_invalid_value_falls_back(tmp_path, capsys):
    (tmp_path / ".packgate.toml").write_text('profile = "nonsense"\nignore = ["PG001"]\n')
    script = tmp_path / "x.sh"
    script.write_text(LEAK)
    rc, out, err = run(capsys, "check", str(script))
    assert rc == 2  # an invalid value is an error; the rest of the file still applies
    assert f'{tmp_path / ".packgate.toml"}: profile = "nonsense": expected one of ov2, ov15, three-gate, auto' in err
    assert "PG001" not in out


def test_a_rule_that_does_not_exist_is_refused(tree, capsys):
    """A typo in --select would silence every rule (exit 0 on a leaking script): usage error."""
    for option in ("--select", "--ignore", "--extend-select"):
        with pytest.raises(SystemExit) as exc:
            main(["check", str(tree / "leak.sh"), option, "PG0x,dead-var"])
        assert exc.value.code == 2
        assert "unknown rule 'PG0x'" in capsys.readouterr().err
    # In a configuration file: an error (exit 2), left out; a select left empty selects every rule.
    (tree / ".packgate.toml").write_text('select = ["PG0x"]\nignore = ["nope", "PG008"]\n'
                                        '[severity]\nPG099 = "hint"\n')
    rc, out, err = run(capsys, "check", str(tree / "leak.sh"))
    assert rc == 2 and "PG001" in out
    assert "unknown rule 'PG0x' in select" in err and "unknown rule 'nope' in ignore" in err
    assert "unknown rule 'PG099' in severity" in err


def test_a_broken_configuration_is_a_usage_error_reported_once(tmp_path, capsys):
    """A config file that cannot be read or parsed applies not at all: exit 2, with the reason
    (line and column), the files still checked with the defaults, the line printed once."""
    project = tmp_path / "proj"
    project.mkdir()
    (tmp_path / ".packgate.toml").write_text('profile = "ov15"\n')  # further up: not used instead
    (project / ".packgate.toml").write_text('profile = "ov15\n')  # unterminated string
    for name in ("a.sh", "b.sh", "c.sh"):
        (project / name).write_text(LEAK)
    rc, out, err = run(capsys, "check", str(project))
    assert rc == 2 and out.count("PG001") == 3
    assert err.count("not valid TOML") == 1 and "(at line 1, column 16)" in err, err
    assert "none of its settings apply" in err
    rc, out, err = run(capsys, "check", str(project / "a.sh"), "--config", str(tmp_path / "missing.toml"))
    assert rc == 2 and "missing.toml: cannot read the configuration: No such file or directory" in err
    assert "PG001" in out


def test_a_configuration_with_a_byte_order_mark_applies(tmp_path, capsys):
    (tmp_path / ".packgate.toml").write_bytes(b"\xef\xbb\xbfignore = ['PG001']\r\n")
    (tmp_path / "a.sh").write_text(LEAK)
    rc, out, err = run(capsys, "check", str(tmp_path / "a.sh"))
    assert (rc, err) == (0, "")


def test_unknown_keys_in_a_configuration_are_reported_once(tmp_path, capsys):
    (tmp_path / ".packgate.toml").write_text('profil = "ov15"\nignore = ["PG008"]\n')
    for name in ("a.sh", "b.sh"):
        (tmp_path / name).write_text(LEAK)
    rc, out, err = run(capsys, "check", str(tmp_path))
    assert rc == 2 and err.count("unknown key 'profil'") == 1, err


def test_a_directive_value_that_means_nothing_is_reported(tmp_path, capsys):
    script = tmp_path / "d.sh"
    script.write_text("#!/bin/bash\n# 中文 😀\n# packgate profile=ov9\n"
                      "\t# packgate disable=PG999,dead-var,all\n" + LEAK.split("\n", 2)[2])
    rc, out, err = run(capsys, "check", str(script))
    assert rc == 0  # the disable=all still applies: only the typos are ignored
    assert f"{script}:3:1: unknown profile 'ov9' in a packgate directive" in err
    assert f"{script}:4:2: unknown rule 'PG999' in a packgate directive; it is ignored" in err
    assert "dead-var" not in err and "'all'" not in err


def test_missing_path_exit_2_others_still_checked(tree, capsys):
    rc, out, err = run(capsys, "check", str(tree / "nope.sh"), str(tree / "leak.sh"))
    assert rc == 2
    assert "nope.sh: cannot read" in err and "Traceback" not in err
    assert "PG001" in out


def test_binary_file(tmp_path, capsys):
    b = tmp_path / "bin.sh"
    b.write_bytes(b"\x7fELF\x00\x00\x01binary")
    rc, out, err = run(capsys, "check", str(b))
    # skipped on purpose: reported, and the exit status is the other files' (none here)
    assert rc == 0 and "binary file" in err and len(err.strip().splitlines()) == 1
    assert "1 file skipped (binary)." in out


def test_invalid_utf8_still_analyzed(tmp_path, capsys):
    b = tmp_path / "latin.sh"
    b.write_bytes(b"# caf\xe9\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py\n")
    rc, out, err = run(capsys, "check", str(b))
    assert rc == 1 and "PG001" in out and "invalid UTF-8" in err


def test_empty_file(tmp_path, capsys):
    e = tmp_path / "empty.sh"
    e.write_bytes(b"")
    rc, out, err = run(capsys, "check", str(e))
    assert rc == 0 and err == ""


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file_in_folder(tree, capsys):
    bad = tree / "secret.sh"
    bad.write_text(LEAK)
    bad.chmod(0)
    rc, out, err = run(capsys, "check", str(tree))
    assert rc == 2 and "secret.sh: cannot read" in err and "leak.sh" in out


def test_fifo_and_device_refused(tmp_path, capsys):
    fifo = tmp_path / "pipe.sh"
    os.mkfifo(fifo)
    rc, out, err = run(capsys, "check", str(fifo), "/dev/zero")
    assert rc == 2
    assert "pipe.sh: not a regular file" in err and "/dev/zero: a kernel or device file" in err


def test_deep_nesting_and_big_file(tmp_path, capsys):
    deep = tmp_path / "deep.sh"
    deep.write_text("X=" + "$(" * 3000 + "echo" + ")" * 3000 + "\n")
    big = tmp_path / "big.sh"
    big.write_text("export OFFLINE_PACKING_BMR=1\n" + "echo line\n" * 100_000 + "torchrun train.py\n")
    rc, out, err = run(capsys, "check", str(deep), str(big))
    assert rc == 1 and "Traceback" not in err
    assert f"{big}:1:8: error" in out


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check", "--fix", "--diff", "x.sh"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["check", "--format", "xml", "x.sh"])
    assert exc.value.code == 2


def test_rules_and_explain(capsys):
    rc, out, _ = run(capsys, "rules")
    assert rc == 0 and len(out.strip().splitlines()) == len(RULES) and "PG003  micro-batch-size" in out
    rc, out, _ = run(capsys, "explain", "lost-export", "--lang", "zh")
    assert rc == 0 and out.startswith("# PG006 `lost-export`") and "问题" in out
    rc, out, err = run(capsys, "explain", "PG999")
    assert rc == 2 and "unknown rule" in err


def test_settings_schema(capsys):
    rc, out, _ = run(capsys, "settings-schema")
    schema = json.loads(out)
    assert set(schema) == {"packgate.profile", "packgate.lang", "packgate.select", "packgate.ignore",
                           "packgate.extendSelect", "packgate.perFileIgnores",
                           "packgate.severity", "packgate.contract", "packgate.workspace.maxScripts",
                           "packgate.workspace.maxFiles"}


def test_console_script_runs(tmp_path):
    script = tmp_path / "x.sh"
    script.write_text(LEAK)
    exe = Path(sys.executable).with_name("packgate")
    res = subprocess.run([str(exe), "check", str(script)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 1 and "PG001" in res.stdout


@pytest.mark.parametrize("command", [["packgate"], [sys.executable, "-m", "packgate"]])
def test_console_script_writes_everything_before_it_exits(tree, capsys, command):
    """The console script leaves without the interpreter's teardown (os._exit): what it printed
    must still all be there, in a pipe and in a file, with the exit code of main()."""
    if command == ["packgate"]:
        command = [str(Path(sys.executable).with_name("packgate"))]
    rc, expected, _ = run(capsys, "check", "--format", "json", str(tree))
    piped = subprocess.run([*command, "check", "--format", "json", str(tree)], capture_output=True,
                           text=True, timeout=60)
    assert (piped.returncode, piped.stdout) == (rc, expected)
    report = tree / "report.json"
    written = subprocess.run([*command, "check", "--format", "json", "-o", str(report), str(tree)],
                             capture_output=True, text=True, timeout=60)
    assert written.returncode == rc and report.read_text(encoding="utf-8") == expected


@pytest.mark.parametrize("files", [1, 3])
def test_the_console_script_pauses_the_collector_only_for_one_file(tmp_path, files):
    """run() checks one file with the cycle collector off (it would only walk the modules'
    objects); with more files (and in check's workers) it must run, or cyclic garbage piles up."""
    for i in range(files):
        (tmp_path / f"s{i}.sh").write_text(LEAK, encoding="utf-8")
    probe = ("import gc, sys\n"
             "from packgate.cli import main as cli\n"
             "checked = cli.cmd_check\n"
             "def watched(args, parser):\n"
             "    code = checked(args, parser)\n"
             "    print('collector', gc.isenabled(), file=sys.stderr, flush=True)\n"
             "    return code\n"
             "cli.cmd_check = watched\n"
             "sys.argv = ['packgate', 'check', sys.argv[1]]\n"
             "cli.run()\n")
    res = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 1 and "PG001" in res.stdout
    assert f"collector {files > 1}" in res.stderr


def test_console_script_into_a_closed_pipe_says_nothing(tree):
    """`packgate check DIR | head -c 1`: the reader goes away; no traceback, no 'Exception ignored'."""
    exe = str(Path(sys.executable).with_name("packgate"))
    res = subprocess.run(f"'{exe}' check --format json '{tree}' | head -c 1", shell=True,
                         capture_output=True, text=True, timeout=60)
    assert res.stdout == "{" and res.stderr == ""


def test_folder_with_a_fifo_without_extension_does_not_hang(tmp_path, capsys):
    os.mkfifo(tmp_path / "launcher")
    (tmp_path / "x.sh").write_text(LEAK)
    rc, out, err = run(capsys, "check", str(tmp_path))
    assert rc == 1 and "x.sh" in out


def test_lang_both_keeps_the_location_line_and_indents_the_second_language(tmp_path, capsys):
    """Issue 17: both languages on separate lines; the text format keeps file:line:col: and the
    rule tag on the first, so grep and editors' problem matchers still find every finding."""
    from packgate.cli.main import main
    script = tmp_path / "leak.sh"
    script.write_text("export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n")
    assert main(["check", "--lang", "both", "--color", "never", "--profile", "ov2", str(script)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{script}:1:8: error: ") and lines[0].endswith("[PG001 missing-companion]")
    assert lines[1].startswith("    ") and "第 2 行" in lines[1] and "[PG001" not in lines[1]
    assert lines[2].startswith("Found 1 problem")
