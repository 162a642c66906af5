"""`auto` in a copy of the training repository without .git (a release archive, or the code
copied into a container): the training code itself marks the root; without code, packgate
says once which profile it assumed and why."""

import json
import shutil
from pathlib import Path

import pytest

from packgate.cli.main import main
from packgate.core import project
from packgate.core.engine import analyze
from packgate.core.settings import Settings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ASSUMED = "Profile ov2 assumed: `auto` found no training code that reads the gates (see --show-settings FILE)."


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _archive(tmp_path, name: str, marker: str | None = None) -> Path:
    """A copy of a fixture repository as a release archive has it: no .git, no pyproject.toml."""
    project.invalidate()
    copy = tmp_path / name
    shutil.copytree(FIXTURES / name, copy, ignore=shutil.ignore_patterns(".git", "pyproject.toml"))
    if marker:
        (copy / marker).write_text("")
    return copy


def _codes(capsys, *argv) -> list:
    _, out, _ = run(capsys, "check", "--format", "json", *argv)
    return [(Path(d["path"]).name, d["line"], d["code"]) for d in json.loads(out)["diagnostics"]]


@pytest.mark.parametrize("marker", [None, "setup.py", "setup.cfg"])
def test_ov15_archive_is_judged_by_its_own_code(tmp_path, capsys, monkeypatch, marker):
    repo = _archive(tmp_path, "repo_ov15", marker)
    assert project.find_root(repo / "scripts" / "stage2.sh") == str(repo.resolve())
    with_root = _codes(capsys, str(FIXTURES / "repo_ov15"))  # the repository, its root marked
    monkeypatch.chdir(repo)
    assert _codes(capsys, ".") == with_root == [("stage2.sh", 5, "PG002")]  # BMR is dead in 1.5
    # what the archive got before: judged as ov2, the correct VQA gate became dead and missing
    assert _codes(capsys, ".", "--profile", "ov2") != with_root
    rc, out, _ = run(capsys, "check", "--color", "never", ".")
    assert ASSUMED not in out


def test_ov2_archive_finds_its_aiak_training_llm_package(tmp_path, capsys, monkeypatch):
    repo = _archive(tmp_path, "repo_ov2")
    monkeypatch.chdir(repo / "scripts")
    analysis = analyze((repo / "scripts" / "stage2.sh").read_text(), path=str(repo / "scripts" / "stage2.sh"),
                       settings=Settings(lang="en"))
    assert analysis.profile.name == "auto" and analysis.profile.reads
    assert analysis.profile.assumed_en == ""
    rc, out, _ = run(capsys, "check", "--show-settings", "stage2.sh")
    assert f"project root: {repo.resolve()}" in out and "auto: encoding gates OFFLINE_PACKING_BMR" in out


def test_without_code_the_summary_says_once_what_was_assumed(tmp_path, capsys, monkeypatch):
    project.invalidate()
    for name in ("a.sh", "b.sh"):
        (tmp_path / name).write_text("#!/bin/bash\nexport OFFLINE_PACKING_VQA=1\n")
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "check", "--color", "never", "a.sh", "b.sh")
    assert out.count("Profile ov2 assumed") == 1 and out.splitlines()[-1] == ASSUMED
    _, out, _ = run(capsys, "check", "--color", "never", "--profile", "ov2", "a.sh")
    assert "assumed" not in out  # a profile the user chose is not an assumption


def test_show_settings_says_why_auto_assumed_ov2(tmp_path, capsys, monkeypatch):
    project.invalidate()
    (tmp_path / "a.sh").write_text("#!/bin/bash\n")
    monkeypatch.chdir(tmp_path)
    if project.find_root(tmp_path) is None:
        _, out, _ = run(capsys, "check", "--show-settings", "a.sh")
        assert "auto: assumed ov2, because no project root above the script" in out
    (tmp_path / ".git").mkdir()
    project.invalidate()
    _, out, _ = run(capsys, "check", "--show-settings", "a.sh")
    assert f"auto: assumed ov2, because no Python code below {tmp_path.resolve()} reads a packing gate" in out


def test_the_core_result_carries_the_reason_for_the_editor(tmp_path):
    """The language server shows Analysis.profile.assumed_en / assumed_zh (empty: nothing assumed)."""
    project.invalidate()
    (tmp_path / ".git").mkdir()
    script = tmp_path / "a.sh"
    analysis = analyze("#!/bin/bash\n", path=str(script), settings=Settings())
    assert analysis.profile.name == "ov2"
    assert "no Python code below" in analysis.profile.assumed_en and analysis.profile.assumed_zh
    assert "standard input" in analyze("#!/bin/bash\n", settings=Settings()).profile.assumed_en
    chosen = analyze("#!/bin/bash\n", path=str(script), settings=Settings(profile="ov15")).profile
    assert chosen.assumed_en == "" and chosen.assumed_zh == ""


def test_the_editor_line_in_each_language(tmp_path):
    project.invalidate()
    (tmp_path / ".git").mkdir()
    assumed = analyze("#!/bin/bash\n", path=str(tmp_path / "a.sh"), settings=Settings()).profile
    en, zh, both = (project.assumed_message(assumed, lang) for lang in ("en", "zh", "both"))
    assert en.startswith("packgate: profile ov2 assumed: no Python code below") and "\n" not in en
    assert zh.startswith("packgate：假定使用 ov2 配置：") and both == f"{en}\n{zh}"  # issue 17: one language a line
    chosen = analyze("#!/bin/bash\n", path=str(tmp_path / "a.sh"), settings=Settings(profile="ov2")).profile
    assert project.assumed_message(chosen, "en") == ""
