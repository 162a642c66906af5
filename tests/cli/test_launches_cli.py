"""`packgate launches FILE`: the json of CONTRACT.md, a text a person reads, bad input as one
line and exit 2."""

import io
import json
import shutil
import sys
from pathlib import Path

from packgate.cli.main import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"
SCRIPT = """\
#!/bin/bash
export OFFLINE_PACKING_BMR=1
export NCCL_DEBUG=INFO
case "$STAGE" in
  stage2) export OFFLINE_PACKED_DATA=1 ;;
  *) unset OFFLINE_PACKED_DATA ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS:-1}" $EXTRA
"""


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_json_has_the_contract_shape(tmp_path, capsys):
    script = tmp_path / "stage2.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    rc, out, err = run(capsys, "launches", str(script), "--format", "json", "--env", "all")
    assert rc == 0, err
    doc = json.loads(out)
    assert set(doc) == {"version", "file", "launches"} and doc["file"] == str(script)
    (launch,) = doc["launches"]
    assert set(launch) == {"line", "column", "command", "entry", "paths"}
    assert (launch["line"], launch["column"], launch["command"], launch["entry"]) == \
        (8, 1, "torchrun", "aiak_training_llm/train.py")
    assert len(launch["paths"]) == 2
    for path in launch["paths"]:
        assert set(path) == {"label", "argv", "env"} and path["label"]
        assert path["argv"] == ["--nproc_per_node", "8", "aiak_training_llm/train.py", "--micro-batch-size",
                                "1", None]
        assert path["env"]["OFFLINE_PACKING_BMR"] == {"value": "1", "from": "export", "line": 2}
        assert path["env"]["NCCL_DEBUG"] == {"value": "INFO", "from": "export", "line": 3}
    by_label = {p["label"]: p["env"]["OFFLINE_PACKED_DATA"] for p in launch["paths"]}
    assert by_label["`case $STAGE` = `stage2` (line 5)"] == {"value": "1", "from": "export", "line": 5}
    assert by_label["`case $STAGE` is none of the above (line 6)"] == {"value": None, "from": "unset", "line": 6}


def test_read_scope_leaves_out_what_no_code_reads(tmp_path, capsys):
    script = tmp_path / "stage2.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    rc, out, _ = run(capsys, "launches", str(script), "--format", "json")
    paths = json.loads(out)["launches"][0]["paths"]
    assert rc == 0 and all("NCCL_DEBUG" not in p["env"] for p in paths)


def test_text_is_a_block_per_launch_and_path(tmp_path, capsys):
    script = tmp_path / "stage2.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    rc, out, _ = run(capsys, "launches", str(script), "--env", "all")
    assert rc == 0
    assert f"{script}:8:1: torchrun -> aiak_training_llm/train.py" in out
    assert "  path 1 of 2: `case $STAGE` = `stage2` (line 5)" in out
    assert "    argv: --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size <$MBS:-1> <$EXTRA...>" in out
    rows = [l for l in out.splitlines() if l.startswith("      ")]
    assert any(r.split() == ["NCCL_DEBUG", "INFO", "export", "line", "3"] for r in rows)
    # aligned: the value column starts at the same place on every row of a block
    first_block = rows[:len(rows) // 2]
    assert len({r.index(r.split()[1], len(r.split()[0])) for r in first_block}) == 1


def test_the_workspace_code_lists_what_it_reads(tmp_path, capsys):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    rc, out, _ = run(capsys, "launches", str(root / "examples/quick_start/stage_1_alignment.sh"), "--format", "json")
    env = json.loads(out)["launches"][0]["paths"][0]["env"]
    assert rc == 0 and env["ENABLE_SWANLAB"] == {"value": "true", "from": "export", "line": 5}
    assert env["SCATTER_BEFORE_PATCH_EMBED"] == {"value": None, "from": "caller", "line": None}


def test_standard_input_with_a_name(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SCRIPT.encode())))
    rc, out, _ = run(capsys, "launches", "-", "--stdin-filename", str(tmp_path / "s.sh"), "--format", "json")
    assert rc == 0 and json.loads(out)["file"] == str(tmp_path / "s.sh")


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    rc, out, err = run(capsys, "launches", str(tmp_path / "missing.sh"))
    assert rc == 2 and out == "" and err.count("\n") == 1 and "missing.sh" in err and "Traceback" not in err
    (tmp_path / "bin.sh").write_bytes(b"export A=1\0\n")
    rc, _, err = run(capsys, "launches", str(tmp_path / "bin.sh"))
    assert rc == 2 and "binary" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\0")))
    rc, _, err = run(capsys, "launches", "-")
    assert rc == 2 and "binary" in err
    (tmp_path / "d").mkdir()
    rc, _, err = run(capsys, "launches", str(tmp_path / "d"))
    assert rc == 2 and err.count("\n") == 1


def test_a_script_without_a_launch(tmp_path, capsys):
    (tmp_path / "env.sh").write_text("export A=1\n", encoding="utf-8")
    rc, out, _ = run(capsys, "launches", str(tmp_path / "env.sh"))
    assert rc == 0 and f"{tmp_path / 'env.sh'}: no launch" in out
    rc, out, _ = run(capsys, "launches", str(tmp_path / "env.sh"), "--format", "json")
    assert json.loads(out)["launches"] == []


def test_profile_picks_the_gates_and_lang_the_labels(tmp_path, capsys):
    script = tmp_path / "stage2.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    rc, out, _ = run(capsys, "launches", str(script), "--format", "json", "--profile", "ov15", "--lang", "zh")
    paths = json.loads(out)["launches"][0]["paths"]
    assert rc == 0 and set(paths[0]["env"]) == {"OFFLINE_PACKING_VQA", "OFFLINE_PACKED_DATA"}
    assert "（第 5 行）" in paths[0]["label"]


def test_a_value_with_a_newline_stays_on_one_line(tmp_path, capsys):
    (tmp_path / "nl.sh").write_text('export A="x\ny"\ntorchrun t.py "a\tb"\n', encoding="utf-8")
    rc, out, _ = run(capsys, "launches", str(tmp_path / "nl.sh"), "--env", "all")
    assert rc == 0 and "    argv: t.py $'a\\tb'" in out
    assert any(row.split()[:3] == ["A", "$'x\\ny'", "export"] for row in out.splitlines())
