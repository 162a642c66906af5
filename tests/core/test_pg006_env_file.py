"""PG006's fix for deepspeed on several nodes: the gates listed in the .deepspeed_env beside
the script (core/deepspeed_env.py), an edit of another file (Edit.path) that fix_all_edits
keeps out of the document and fix_all hands back in its outside dict."""

from __future__ import annotations

from packgate.core.engine import analyze, fix_all
from packgate.core.findings import Applicability
from packgate.core.outside import change_of, digest
from packgate.core.settings import Settings

EN = Settings(lang="en")
UNSAFE = Settings(lang="en", unsafe_fixes=True)
BOTH = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
LAUNCH = "deepspeed --num_nodes 2 aiak_training_llm/train.py --micro-batch-size 1\n"


def _env_fixes(text: str, script) -> list:
    a = analyze(text, path=str(script), settings=EN)
    return [x for f in a.findings if f.code == "PG006" for x in f.fixes if x.kind == "fix"]


def test_a_new_file_lists_every_gate_the_nodes_lose(tmp_path):
    script = tmp_path / "run.sh"
    [fix] = _env_fixes(BOTH + LAUNCH, script)
    [edit] = fix.edits
    assert fix.applicability is Applicability.UNSAFE and not fix.preferred
    assert edit.path == str(tmp_path / ".deepspeed_env") and edit.create
    assert (edit.start, edit.end, edit.text) == (0, 0, "OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n")
    assert fix.description == "List OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 in .deepspeed_env"


def test_an_existing_file_gets_only_the_missing_names_in_its_line_endings(tmp_path):
    script = tmp_path / "run.sh"
    data = b"NCCL_DEBUG=INFO\r\nOFFLINE_PACKING_BMR=1"  # CRLF, no newline at its end
    (tmp_path / ".deepspeed_env").write_bytes(data)
    [fix] = _env_fixes(BOTH + LAUNCH, script)
    [edit] = fix.edits
    assert not edit.create and edit.digest == digest(data)
    assert (edit.start, edit.end, edit.text) == (len(data), len(data), "\r\nOFFLINE_PACKED_DATA=1\r\n")
    change = change_of(edit.path, [edit])
    assert change.after == data + b"\r\nOFFLINE_PACKED_DATA=1\r\n"
    (tmp_path / ".deepspeed_env").write_bytes(change.after)
    assert not _env_fixes(BOTH + LAUNCH, script)  # every name listed: nothing lost, nothing to fix


def test_no_fix_after_a_cd_or_for_a_value_the_path_does_not_know(tmp_path):
    script = tmp_path / "run.sh"
    assert not _env_fixes("cd /workspace\n" + BOTH + LAUNCH, script)
    assert not _env_fixes('export OFFLINE_PACKING_BMR="$1"\nexport OFFLINE_PACKED_DATA=1\n' + LAUNCH, script)
    assert not _env_fixes("export OFFLINE_PACKING_BMR='1 2'\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH, script)
    assert not (tmp_path / ".deepspeed_env").exists()


def test_the_batch_fix_keeps_the_other_file_out_of_the_document(tmp_path):
    script = tmp_path / "run.sh"
    text = BOTH + LAUNCH
    assert analyze(text, path=str(script), settings=UNSAFE).fix_all_edits() == []
    outside: dict = {}
    assert fix_all(text, path=str(script), settings=EN, outside=outside) == text and outside == {}
    assert fix_all(text, path=str(script), settings=UNSAFE, outside=outside) == text
    assert list(outside) == [str(tmp_path / ".deepspeed_env")]


def test_a_file_changed_since_is_stale(tmp_path):
    import pytest
    from packgate.core.outside import Stale
    script = tmp_path / "run.sh"
    [fix] = _env_fixes(BOTH + LAUNCH, script)
    (tmp_path / ".deepspeed_env").write_text("X=1\n")
    with pytest.raises(Stale):
        change_of(fix.edits[0].path, list(fix.edits))


def test_an_edit_inside_a_comment_moves_the_document_edits_not_the_other_files(tmp_path):
    script = tmp_path / "run.sh"
    (tmp_path / ".deepspeed_env").write_text("NCCL_DEBUG=INFO\n")
    text = "# setup\n" + BOTH + LAUNCH
    a = analyze(text, path=str(script), settings=EN)
    new = "# setup, two nodes\n" + BOTH + LAUNCH
    moved = a.shifted([(7, 7, b", two nodes")], new)
    assert moved is not None
    [before] = [x for f in a.findings for x in f.fixes if x.kind == "fix"]
    [after] = [x for f in moved.findings for x in f.fixes if x.kind == "fix"]
    assert after.edits == before.edits  # offsets in .deepspeed_env, which the edit did not touch
    disables = [(e.start, e.path) for f in moved.findings for x in f.fixes if x.kind == "disable" for e in x.edits]
    assert any(start > 0 and path is None for start, path in disables)


def test_two_launches_share_one_edit_and_differing_values_give_none(tmp_path):
    script = tmp_path / "run.sh"
    text = BOTH + LAUNCH + LAUNCH
    fixes = _env_fixes(text, script)
    assert len(fixes) == 2 and fixes[0].edits == fixes[1].edits  # one per launch, the same lines
    outside: dict = {}
    fix_all(text, path=str(script), settings=UNSAFE, outside=outside)
    assert [len(edits) for edits in outside.values()] == [1]
    assert not _env_fixes(BOTH + LAUNCH + "export OFFLINE_PACKING_BMR=0\n" + LAUNCH, script)
