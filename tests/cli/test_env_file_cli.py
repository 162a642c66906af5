"""`packgate check` with PG006's .deepspeed_env fix, an edit of a file beside the script:
--fix applies it only with --unsafe-fixes, writes it safely (a new file made, an existing one
appended to, a file changed since refused), --diff shows it, json and SARIF name its file."""

import json

import pytest

from packgate.cli.main import main

SCRIPT = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
          "deepspeed --num_nodes 2 aiak_training_llm/train.py --micro-batch-size 1\n")
LINES = "OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def launcher(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "multi.sh"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


def test_fix_leaves_the_file_beside_the_script_alone_without_unsafe_fixes(launcher, capsys):
    rc, out, _ = run(capsys, "check", "--fix", "--profile", "ov2", "multi.sh")
    assert rc == 1 and "PG006" in out
    assert sorted(p.name for p in launcher.parent.iterdir()) == ["multi.sh"]


def test_unsafe_fixes_make_the_env_file_and_the_findings_go(launcher, capsys):
    rc, out, err = run(capsys, "check", "--fix", "--unsafe-fixes", "--profile", "ov2", "multi.sh")
    made = launcher.parent / ".deepspeed_env"
    assert rc == 0, out + err
    assert made.read_text() == LINES and launcher.read_text() == SCRIPT
    assert "Fixed 2 problems in 1 file" in out
    assert sorted(p.name for p in launcher.parent.iterdir()) == [".deepspeed_env", "multi.sh"]
    assert made.stat().st_mode & 0o777 == 0o666 & ~_umask()


def test_unsafe_fixes_append_to_an_existing_file_in_its_line_endings(launcher, capsys):
    env = launcher.parent / ".deepspeed_env"
    env.write_bytes(b"NCCL_DEBUG=INFO\r\nOFFLINE_PACKED_DATA=1")
    rc, _, _ = run(capsys, "check", "--fix", "--unsafe-fixes", "--profile", "ov2", "multi.sh")
    assert rc == 0
    assert env.read_bytes() == b"NCCL_DEBUG=INFO\r\nOFFLINE_PACKED_DATA=1\r\nOFFLINE_PACKING_BMR=1\r\n"


def test_a_file_made_meanwhile_is_refused(launcher, capsys, monkeypatch):
    from packgate.core import engine
    real = engine.fix_all

    def made_meanwhile(text, **kwargs):
        out = real(text, **kwargs)
        (launcher.parent / ".deepspeed_env").write_text("OTHER=1\n")
        return out
    monkeypatch.setattr(engine, "fix_all", made_meanwhile)
    rc, _, err = run(capsys, "check", "--fix", "--unsafe-fixes", "--profile", "ov2", "multi.sh")
    assert rc == 2 and ".deepspeed_env: not fixed: the file changed on disk" in err
    assert (launcher.parent / ".deepspeed_env").read_text() == "OTHER=1\n"


def test_diff_shows_the_new_file_from_dev_null_and_writes_nothing(launcher, capsys):
    rc, out, _ = run(capsys, "check", "--diff", "--unsafe-fixes", "--profile", "ov2", "multi.sh")
    assert out.splitlines() == ["--- /dev/null", "+++ b/.deepspeed_env", "@@ -0,0 +1,2 @@",
                                "+OFFLINE_PACKING_BMR=1", "+OFFLINE_PACKED_DATA=1"]
    assert not (launcher.parent / ".deepspeed_env").exists()
    (launcher.parent / ".deepspeed_env").write_text("NCCL_DEBUG=INFO\n")
    rc, out, _ = run(capsys, "check", "--diff", "--unsafe-fixes", "--profile", "ov2", "multi.sh")
    assert out.splitlines()[:2] == ["--- a/.deepspeed_env", "+++ b/.deepspeed_env"]
    assert "+OFFLINE_PACKED_DATA=1" in out.splitlines() and " NCCL_DEBUG=INFO" in out.splitlines()


def test_json_gives_the_edit_its_file_and_sarif_one_change_per_file(launcher, capsys):
    _, out, _ = run(capsys, "check", "--format", "json", "--profile", "ov2", "multi.sh")
    fixes = [x for d in json.loads(out)["diagnostics"] for x in d["fixes"] if x["kind"] == "fix"]
    [fix] = fixes
    assert fix["applicability"] == "unsafe"
    assert fix["edits"] == [{"line": 1, "column": 1, "end_line": 1, "end_column": 1, "text": LINES,
                             "path": str(launcher.parent / ".deepspeed_env"), "create": True}]
    disables = [x for d in json.loads(out)["diagnostics"] for x in d["fixes"] if x["kind"] == "disable"]
    assert disables and all("path" not in e for x in disables for e in x["edits"])
    _, out, _ = run(capsys, "check", "--format", "sarif", "--profile", "ov2", "multi.sh")
    [result] = [r for r in json.loads(out)["runs"][0]["results"] if r.get("fixes")]
    [change] = result["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"].endswith(".deepspeed_env")
    assert change["replacements"][0]["insertedContent"]["text"] == LINES


def _umask() -> int:
    import os
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
