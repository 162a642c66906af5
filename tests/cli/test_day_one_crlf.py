"""A CRLF launcher gets one warning (ShellCheck's SC1017): bash keeps the \\r, so `torchrun \\`
+ CRLF escapes the \\r, not the line break, and the next line runs as a command of its own.

The warning is a problem of `packgate check` (no rule code: the rules' codes are the contract's), at
the first line that ends in CRLF; the analysis of the file is otherwise what it was.
"""

from __future__ import annotations

import json

from packgate import Settings, analyze
from packgate.cli.main import main
from packgate.core.notices import crlf_edits
from packgate.core.findings import NoticeKind
from packgate.core.text import apply_edits

LF = ("#!/bin/bash\n# 说明 😀\nexport OFFLINE_PACKING_BMR='1'\n\n"
      "torchrun --nproc_per_node 8 aiak_training_llm/train.py \\\n    --micro-batch-size 2\n")
CRLF = LF.replace("\n", "\r\n")


def check(capsys, path, *args) -> tuple[int, str, str]:
    rc = main(["check", "--lang", "en", "--color", "never", *args, str(path)])
    out, err = capsys.readouterr()
    return rc, out, err


def test_one_warning_per_crlf_file_at_its_first_crlf_line(tmp_path, capsys):
    script = tmp_path / "train.sh"
    script.write_bytes(CRLF.encode())
    rc, out, err = check(capsys, script)
    lines = [line for line in err.splitlines() if "CRLF" in line]
    assert len(lines) == 1, err
    assert lines[0].startswith(f"packgate: {script}:1:1: this file has CRLF (Windows) line ends")
    assert "convert the file to LF" in lines[0]
    assert rc == 1  # PG001 as before; the warning itself changes no exit status


def test_the_first_crlf_line_of_a_mixed_file(tmp_path, capsys):
    script = tmp_path / "mixed.sh"
    text = LF.replace("\n\n", "\r\n\n").replace("\\\n", "\\\r\n")  # lines 3 and 5 end in CRLF
    script.write_bytes(text.encode())
    _, _, err = check(capsys, script)
    assert f"{script}:3:1: this file has CRLF" in err and err.count("CRLF") == 1, err


def test_an_lf_file_gets_none(tmp_path, capsys):
    script = tmp_path / "train.sh"
    script.write_text(LF)
    _, _, err = check(capsys, script)
    assert "CRLF" not in err


def test_the_findings_of_a_crlf_file_are_unchanged(tmp_path, capsys):
    """The same findings, at the same lines and columns, as the LF file gives."""
    lf, crlf = tmp_path / "lf.sh", tmp_path / "crlf.sh"
    lf.write_text(LF)
    crlf.write_bytes(CRLF.encode())
    _, out_lf, _ = check(capsys, lf, "--format", "json")
    _, out_crlf, _ = check(capsys, crlf, "--format", "json")
    a, b = json.loads(out_lf), json.loads(out_crlf)
    keep = ("line", "column", "end_line", "end_column", "code", "message")
    assert [{k: d[k] for k in keep} for d in a["diagnostics"]] == \
        [{k: d[k] for k in keep} for d in b["diagnostics"]]
    [problem] = b["problems"]
    assert (problem["line"], problem["column"], problem["level"]) == (1, 1, "warning")
    assert a["problems"] == []


def test_stdin_and_the_notice_itself(capsys, monkeypatch):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CRLF.encode())))
    rc = main(["check", "--lang", "en", "--stdin-filename", "w.sh", "-"])
    assert "w.sh:1:1: this file has CRLF" in capsys.readouterr().err
    analysis = analyze(CRLF, settings=Settings(lang="zh"))
    [notice] = analysis.notices
    assert notice.kind is NoticeKind.CRLF and "CRLF" in notice.message and "换行" in notice.message
    assert (notice.start, notice.end) == (0, CRLF.index("\r"))
    assert rc == 1


def test_convert_to_lf_edits_are_byte_ranges_that_apply_together():
    source = analyze(CRLF).source
    edits = crlf_edits(source)
    assert len(edits) == CRLF.count("\r\n")
    assert apply_edits(source.data, edits).decode() == LF
    assert crlf_edits(analyze(LF).source) == []
