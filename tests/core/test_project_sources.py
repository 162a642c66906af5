"""Profile auto from the project's Python code, and following source/. safely."""

import os
import time
from pathlib import Path

import pytest

from packgate import Settings, analyze
from packgate.core import project

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EN = Settings(lang="en")


def check(path: Path, **kw):
    text = path.read_text(encoding="utf-8")
    return analyze(text, path=str(path), settings=Settings(lang="en", **kw))


def test_auto_picks_ov15_from_a_15_style_encoder():
    a = check(FIXTURES / "repo_ov15" / "scripts" / "stage2.sh")
    assert a.profile.encoding == ("OFFLINE_PACKING_VQA",)
    assert a.profile.dead == ("OFFLINE_PACKING_BMR",)
    assert [f.code for f in a.findings] == ["PG002"]
    assert "OFFLINE_PACKING_BMR" in a.findings[0].message


def test_auto_picks_ov2_from_a_2_style_encoder_and_shows_reads_in_hover():
    a = check(FIXTURES / "repo_ov2" / "scripts" / "env" / "packing.sh")
    assert a.profile.encoding == ("OFFLINE_PACKING_BMR",) and a.profile.dead == ("OFFLINE_PACKING_VQA",)
    reads = a.profile.reads
    assert {(r.name, Path(r.path).name, r.line, r.parse) for r in reads} == {
        ("OFFLINE_PACKING_BMR", "task_encoder.py", 9, "int"),
        ("OFFLINE_PACKED_DATA", "task_encoder.py", 13, "int")}
    body, _, _ = a.hover(a.source.data.index(b"OFFLINE_PACKING_BMR"), "en")
    assert "task_encoder.py:9" in body


def test_explicit_profile_wins_over_auto():
    a = check(FIXTURES / "repo_ov15" / "scripts" / "stage2.sh", profile="ov2")
    assert {f.code for f in a.findings} == {"PG002"}
    assert "OFFLINE_PACKING_VQA" in a.findings[0].message


def test_auto_without_project_code_is_ov2(tmp_path):
    (tmp_path / ".git").mkdir()
    script = tmp_path / "x.sh"
    script.write_text("export OFFLINE_PACKING_VQA=1\n")
    a = check(script)
    assert a.profile.name == "ov2" and [f.code for f in a.findings] == ["PG002"]


def test_string_compare_read_changes_the_judgement(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "enc.py").write_text(
        'import os\nA = os.environ.get("OFFLINE_PACKING_BMR") == "1"\n'
        'B = int(os.getenv("OFFLINE_PACKED_DATA", 0)) == 1\n')
    script = tmp_path / "x.sh"
    script.write_text("export OFFLINE_PACKING_BMR=01\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")
    codes = [f.code for f in check(script).findings]
    assert codes == ["PG005", "PG001"]  # "01" == "1" is False: BMR is off for this code base
    script.write_text("export OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")
    assert "PG005" in [f.code for f in check(script).findings]


def test_index_ignores_strings_comments_and_tests(tmp_path):
    (tmp_path / ".packgate.toml").write_text("")
    (tmp_path / "doc.py").write_text('S = \'int(os.environ.get("OFFLINE_PACKING_VQA", 0)) == 1\'\n'
                                     '# os.environ.get("OFFLINE_PACKING_VQA")\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text('import os\nos.environ.get("OFFLINE_PACKING_VQA")\n')
    project.invalidate()
    assert project.scan(tmp_path).reads == []


def test_index_is_cached_and_refreshed_on_change(tmp_path):
    (tmp_path / ".git").mkdir()
    enc = tmp_path / "enc.py"
    enc.write_text('import os\nos.environ.get("OFFLINE_PACKING_VQA")\n')
    project.invalidate()
    first = project.index_for(str(tmp_path / "x.sh"))
    assert project.index_for(str(tmp_path / "x.sh")) is first
    time.sleep(0.01)
    enc.write_text('import os\nos.environ.get("OFFLINE_PACKING_BMR")\nos.environ.get("OFFLINE_PACKED_DATA")\n')
    os.utime(enc, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    second = project.index_for(str(tmp_path / "x.sh"))
    assert second is not first and {r.name for r in second.reads} == {"OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA"}


def test_the_project_root_is_remembered_while_typing_and_looked_up_again_on_refresh(tmp_path):
    """root_of: typing (refresh=False) keeps the root found last time; open and save (refresh)
    and a project change (invalidate) look again."""
    script = tmp_path / "team" / "train.sh"
    script.parent.mkdir()
    script.write_text("torchrun train.py\n")
    above = project.find_root(script)  # whatever holds the temporary folder
    assert project.root_of(str(script)) == above
    (tmp_path / ".git").mkdir()
    assert project.root_of(str(script), refresh=False) == above  # remembered
    assert project.root_of(str(script)) == str(tmp_path.resolve())
    (tmp_path / "team" / "pyproject.toml").write_text("")
    assert project.root_of(str(script), refresh=False) == str(tmp_path.resolve())
    project.invalidate()
    assert project.root_of(str(script), refresh=False) == str(script.parent.resolve())


# ------------------------------------------------------------------ source / .

def test_sourced_env_with_only_bmr_reports_at_the_source_line():
    script = FIXTURES / "repo_ov2" / "scripts" / "stage2.sh"
    a = check(script)
    [f] = a.findings
    assert f.code == "PG001" and (f.line, f.column) == (4, 1)
    rel = f.related[0]
    assert rel.path.endswith("env/packing.sh")
    src = a.source_for(rel.path)
    assert src.slice(rel.start, rel.end) == "OFFLINE_PACKING_BMR"
    fix = f.fixes[0]
    assert fix.safe and fix.edits[0].text.strip() == "export OFFLINE_PACKED_DATA='1'"
    assert str(Path(rel.path).resolve()) in a.dependencies


@pytest.mark.parametrize("form", [
    'source ./env.sh', '. env.sh', 'source "$(dirname "$0")/env.sh"',
    'source "$(dirname "${BASH_SOURCE[0]}")/env.sh"',
    'D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\nsource "$D/env.sh"',
    '# packgate source=env.sh\nsource "$ENV_FILE"',
])
def test_source_forms(tmp_path, form):
    (tmp_path / ".git").mkdir()
    (tmp_path / "env.sh").write_text("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n")
    script = tmp_path / "run.sh"
    script.write_text(f"#!/bin/bash\n{form}\ntorchrun train.py --micro-batch-size 4\n")
    codes = [f.code for f in check(script).findings]
    assert codes == ["PG003"], codes  # packing is on through the sourced file


def test_dynamic_source_asks_for_a_directive(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text('source "$ENV_FILE"\ntorchrun train.py --micro-batch-size 1\n')  # a launcher: its exports matter
    [f] = check(script).findings
    assert f.code == "PG009" and "packgate source=" in f.message


@pytest.mark.parametrize("target,reason", [("/dev/zero", "device"), ("fifo", "not a regular file"),
                                           ("link", "outside the project"), ("self", "cycle"),
                                           ("missing.sh", "not found")])
def test_refused_sources_are_quick_and_explained(tmp_path, target, reason):
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".git").mkdir()
    outside = tmp_path / "outside.sh"
    outside.write_text("export OFFLINE_PACKING_BMR=1\n")
    if target == "fifo":
        os.mkfifo(root / "fifo")
    if target == "link":
        (root / "link").symlink_to(outside)
    script = root / "run.sh"
    line = {"self": 'source "$0"'}.get(target, f"source {target}")
    script.write_text(f"{line}\ntorchrun train.py\n")
    started = time.monotonic()
    findings = check(script).findings
    assert time.monotonic() - started < 5
    assert [f.code for f in findings] == ["PG009"]
    assert reason in findings[0].message


def test_cycle_between_two_files(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.sh").write_text("source b.sh\nexport OFFLINE_PACKING_BMR=1\n")
    (tmp_path / "b.sh").write_text("source a.sh\n")
    a = check(tmp_path / "a.sh")
    assert "PG009" in [f.code for f in a.findings]
    assert any("cycle" in f.message for f in a.findings)


def test_overlay_text_wins_over_disk(tmp_path):
    from packgate.core.sourced import SourceLoader
    (tmp_path / ".git").mkdir()
    env = tmp_path / "env.sh"
    env.write_text("export OFFLINE_PACKING_BMR=1\n")
    script = tmp_path / "run.sh"
    text = "source env.sh\ntorchrun train.py\n"
    loader = SourceLoader(str(tmp_path), {str(env): "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"})
    a = analyze(text, path=str(script), settings=EN, loader=loader.load)
    assert a.findings == []
    b = analyze(text, path=str(script), settings=EN)
    assert [f.code for f in b.findings] == ["PG001"]


@pytest.mark.parametrize("overwrite", ["export OFFLINE_PACKED_DATA=0", "unset OFFLINE_PACKED_DATA"])
def test_an_overwrite_in_a_sourced_file_is_placed_at_the_source_command(tmp_path, overwrite):
    """PG008 names the line of the `source` command and links into the sourced file, where
    the overwrite is (it used to give that file's line number as this script's)."""
    (tmp_path / "env.sh").write_text("echo hi\n\n" + overwrite + "\n")
    script = tmp_path / "train.sh"
    script.write_text("#!/bin/bash\nexport OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKING_BMR=1\n"
                      "echo a\nsource ./env.sh\ntorchrun train.py\n")
    found = [f for f in check(script, profile="ov2").findings if f.code == "PG008"]
    assert len(found) == 1 and "line 5" in found[0].message, found
    (related,) = found[0].related
    assert related.path == str((tmp_path / "env.sh").resolve())
    env = (tmp_path / "env.sh").read_bytes()
    assert "OFFLINE_PACKED_DATA" in env[related.start:related.end].decode()
    assert env[:related.start].count(b"\n") == 2  # on env.sh's third line


def test_the_other_gate_set_in_a_sourced_file_is_linked_there(tmp_path):
    """PG001's related information about the other gate points into the sourced file that
    set it (it pointed at the same offsets of this script)."""
    (tmp_path / "env.sh").write_text("# env\nexport OFFLINE_PACKED_DATA=0\n")
    script = tmp_path / "train.sh"
    script.write_text("#!/bin/bash\nsource ./env.sh\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py\n")
    (finding,) = [f for f in check(script, profile="ov2").findings if f.code == "PG001"]
    other = [r for r in finding.related if "OFFLINE_PACKED_DATA" in r.message]
    assert len(other) == 1 and other[0].path == str((tmp_path / "env.sh").resolve())
    env = (tmp_path / "env.sh").read_bytes()
    assert env[other[0].start:other[0].end] == b"OFFLINE_PACKED_DATA"


def test_hover_names_the_sourced_file_a_value_comes_from(tmp_path):
    (tmp_path / "env.sh").write_text("# env\nexport OFFLINE_PACKED_DATA=0\n")
    script = tmp_path / "train.sh"
    text = ("#!/bin/bash\nsource ./env.sh\nexport OFFLINE_PACKING_BMR=1\necho \"$OFFLINE_PACKED_DATA\"\n"
            "torchrun train.py\n")
    script.write_text(text)
    a = check(script, profile="ov2")
    hover = a.hover(text.index("OFFLINE_PACKED_DATA"), "both")[0]
    assert "`'0'`, from line 2 of env.sh" in hover and "来自 env.sh 第 2 行" in hover
    hover = a.hover(text.index("OFFLINE_PACKING_BMR"), "both")[0]
    assert "`'1'`, from line 3" in hover and "来自第 3 行" in hover


def test_branches_inside_a_sourced_file_are_described_at_the_source_command(tmp_path):
    """PG007 names each path by its branch decisions and their lines; a decision inside a
    sourced file is shown at the line of the `source` command (it was the sourced file's line
    number read as this script's)."""
    (tmp_path / "env.sh").write_text("echo pad\n" * 6 + 'if [ -n "$X" ]; then\n  export OFFLINE_PACKED_DATA=1\nfi\n')
    script = tmp_path / "train.sh"
    script.write_text("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nsource ./env.sh\ntorchrun train.py\n")
    (finding,) = [f for f in check(script, profile="ov2").findings if f.code == "PG007"]
    assert "if taken (line 3)" in finding.message and "line 7" not in finding.message


def test_a_launch_in_a_sourced_file_is_judged_at_the_source_command(tmp_path):
    """The launch itself sits in the sourced file: it is judged where the script sources it
    (it used to be dropped, and the gates judged at the end of the script instead)."""
    (tmp_path / "launch.sh").write_text("export OFFLINE_PACKING_BMR=1\n"
                                        "torchrun aiak_training_llm/train.py --micro-batch-size 2\n")
    script = tmp_path / "train.sh"
    text = "#!/bin/bash\nsource ./launch.sh\necho done\n"
    script.write_text(text)
    a = check(script, profile="ov2")
    (launch,) = a.flow.launches
    assert launch.label == "torchrun (sourced)" and not launch.implicit
    at = text.index("source ./launch.sh")
    assert (launch.start, launch.end) == (at, at + len("source ./launch.sh"))
    (finding,) = a.findings
    assert finding.code == "PG001" and finding.line == 2

