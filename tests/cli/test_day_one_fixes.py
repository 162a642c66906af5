"""Day one on a real repository: fixes that rest on a guess are unsafe, a configuration file never
moves where the training code is looked for, `--fix -` exits with what is left, and `--fix` keeps
a file's hard links."""

import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from packgate.cli.main import main
from packgate.core import project
from packgate.core.engine import analyze
from packgate.core.findings import Applicability, Reason
from packgate.core.settings import Settings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# a correct LLaVA-OneVision-1.5 launcher: VQA is its encoding gate, BMR nothing reads
OV15 = ("#!/bin/bash\nexport OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n"
        "torchrun --nproc_per_node 8 llava/train.py --micro-batch-size 1\n")
LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"
NOTE = "(fix withheld: it rests on the assumed profile ov2; --unsafe-fixes applies it, or set profile)"


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def copied(tmp_path):
    """The 1.5 launcher copied out of its repository: no root, no training code above it."""
    project.invalidate()
    if project.find_root(tmp_path) is not None:
        pytest.skip("something above the temporary folder marks a project root")
    path = tmp_path / "stage2.sh"
    path.write_text(OV15, encoding="utf-8")
    return path


# ---------------------------------------------------------------- 1. safe and unsafe fixes

def test_fix_leaves_a_copied_ov15_launcher_alone_and_says_why(copied, capsys):
    rc, out, _ = run(capsys, "check", "--fix", "--color", "never", str(copied))
    assert copied.read_text(encoding="utf-8") == OV15  # before: VQA deleted, BMR added
    assert rc == 1
    lines = out.splitlines()
    for code in ("PG001", "PG002"):
        at = next(i for i, line in enumerate(lines) if f"[{code} " in line)
        assert lines[at + 1] == f"    {NOTE}", out
    assert "Fixed" not in out
    assert ("2 fixes withheld: they rest on the profile `auto` assumed (ov2); --unsafe-fixes applies "
            "them, or set profile.") in lines


def test_diff_leaves_the_unsafe_fixes_out_and_says_so_on_stderr(copied, capsys):
    rc, out, err = run(capsys, "check", "--diff", str(copied))
    assert out == ""
    assert "packgate: 2 fixes withheld" in err


@pytest.mark.parametrize("how", ["option", "config"])
def test_unsafe_fixes_applies_them(copied, capsys, how):
    argv = ["check", "--fix", str(copied)]
    if how == "option":
        argv.append("--unsafe-fixes")
    else:
        (copied.parent / ".packgate.toml").write_text("unsafe-fixes = true\n", encoding="utf-8")
    rc, out, _ = run(capsys, *argv)
    fixed = copied.read_text(encoding="utf-8")
    assert "OFFLINE_PACKING_VQA" not in fixed and "export OFFLINE_PACKING_BMR=1" in fixed
    assert rc == 0 and "withheld" not in out


def test_unsafe_fixes_in_a_configuration_must_be_a_bool(copied, capsys):
    (copied.parent / ".packgate.toml").write_text('unsafe-fixes = "yes"\n', encoding="utf-8")
    _, _, err = run(capsys, "check", "--fix", str(copied))
    assert "unsafe-fixes" in err and "true or false" in err
    assert copied.read_text(encoding="utf-8") == OV15  # the invalid value does not turn them on


def test_a_named_profile_makes_the_fixes_safe(copied, capsys):
    copied.write_text(LEAK, encoding="utf-8")
    rc, out, _ = run(capsys, "check", "--fix", "--profile", "ov2", str(copied))
    assert rc == 0 and "export OFFLINE_PACKED_DATA='1'" in copied.read_text(encoding="utf-8")
    assert "withheld" not in out


def test_the_applicability_is_typed_and_in_the_json(copied, capsys):
    analysis = analyze(OV15, path=str(copied), settings=Settings(lang="en"))
    fixes = [x for f in analysis.findings for x in f.fixes if x.kind == "fix"]
    unsafe = [x for x in fixes if x.applicability is Applicability.UNSAFE]
    assert unsafe and all(x.caveat.reason is Reason.ASSUMED_PROFILE and x.caveat.profile == "ov2"
                          for x in unsafe)
    assert not any(x.safe for x in fixes)
    _, out, _ = run(capsys, "check", "--format", "json", str(copied))
    entries = [x for d in json.loads(out)["diagnostics"] for x in d["fixes"]]
    assert {(x["kind"], x["applicability"]) for x in entries} >= {("fix", "unsafe"), ("disable", "display-only")}
    assert all(x["reason"] == "assumed-profile" for x in entries if x["applicability"] == "unsafe")
    _, out, _ = run(capsys, "check", "--format", "json", "--profile", "ov15", str(copied))
    assert json.loads(out)["diagnostics"] == []
    copied.write_text(LEAK, encoding="utf-8")
    _, out, _ = run(capsys, "check", "--format", "json", "--profile", "ov2", str(copied))
    [finding] = json.loads(out)["diagnostics"]
    assert finding["fixes"][0]["applicability"] == "safe" and finding["fixes"][0]["reason"] is None


def test_pre_commit_fix_hook_applies_safe_fixes_only():
    hooks = (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    entry = hooks.split("id: packgate-fix", 1)[1].split("entry:", 1)[1].splitlines()[0].strip()
    assert entry == "packgate check --fix"  # --fix is safe fixes only; never --unsafe-fixes


# ---------------------------------------------------------------- 2. where the training code is

def _clone_15(tmp_path, marker: str | None = ".git", config: str = ".packgate.toml") -> Path:
    """A fake LLaVA-OneVision-1.5 clone with an examples/ folder of its own configuration."""
    project.invalidate()
    repo = tmp_path / "LLaVA-OneVision-1.5"
    (repo / "llava" / "data").mkdir(parents=True)
    shutil.copyfile(FIXTURES / "repo_ov15" / "llava" / "data" / "task_encoder.py",
                    repo / "llava" / "data" / "task_encoder.py")
    if marker == ".git":
        (repo / ".git").mkdir()
    elif marker:
        (repo / marker).write_text("", encoding="utf-8")
    (repo / "examples").mkdir()
    body = 'ignore = ["overridden"]\n'
    (repo / "examples" / config).write_text(body if config == ".packgate.toml" else "[tool.packgate]\n" + body,
                                            encoding="utf-8")
    (repo / "examples" / "stage2.sh").write_text(OV15, encoding="utf-8")
    return repo


@pytest.mark.parametrize("marker", [".git", "setup.py", None])
def test_a_configuration_in_examples_does_not_move_the_training_code(tmp_path, capsys, marker):
    repo = _clone_15(tmp_path, marker)
    script = repo / "examples" / "stage2.sh"
    assert project.find_root(script) == str(repo.resolve())
    analysis = analyze(OV15, path=str(script), settings=Settings(lang="en"))
    assert analysis.profile.encoding == ("OFFLINE_PACKING_VQA",) and not analysis.profile.assumed_en
    rc, out, _ = run(capsys, "check", "--format", "json", str(script))
    assert rc == 0 and json.loads(out)["diagnostics"] == []
    rc, _, _ = run(capsys, "check", "--fix", str(script))
    assert rc == 0 and script.read_text(encoding="utf-8") == OV15


def test_show_settings_says_where_the_code_is_looked_for(tmp_path, capsys):
    repo = _clone_15(tmp_path)
    script = repo / "examples" / "stage2.sh"
    rc, out, _ = run(capsys, "check", "--show-settings", str(script))
    assert rc == 0
    config = os.path.realpath(repo / "examples" / ".packgate.toml")
    assert f"configuration: {config}" in out
    assert f"project root: {repo.resolve()} (it holds .git; the training code is looked for below it)" in out
    assert "says how to check; a configuration file never moves where the training code is looked for" in out
    assert "auto: encoding gates OFFLINE_PACKING_VQA; batch gate OFFLINE_PACKED_DATA; dead OFFLINE_PACKING_BMR" in out
    assert "ignore: overridden" in out and "unsafe-fixes: false" in out


def test_a_configuration_alone_still_marks_the_root(tmp_path):
    """Without a repository or training code above, the configuration's folder stays the root
    (sourced files stay inside it), as before."""
    project.invalidate()
    if project.find_root(tmp_path) is not None:
        pytest.skip("something above the temporary folder marks a project root")
    (tmp_path / "scripts").mkdir()
    (tmp_path / ".packgate.toml").write_text("", encoding="utf-8")
    assert project.find_root(tmp_path / "scripts" / "a.sh") == str(tmp_path.resolve())


# ---------------------------------------------------------------- 3. --fix - exits with what is left

def test_fix_stdin_exits_with_what_is_left(capsys, monkeypatch):
    rc, out, _ = run(capsys, "check", "--fix", "--profile", "ov2", "-", stdin=LEAK, monkeypatch=monkeypatch)
    assert "export OFFLINE_PACKED_DATA='1'" in out
    assert rc == 0  # before: 1, the findings of the text before the fix
    rc, out, err = run(capsys, "check", "--fix", "-", stdin=OV15, monkeypatch=monkeypatch)
    assert out == OV15 and rc == 1  # nothing safe to fix: the findings are left
    assert "2 fixes withheld" in err


def test_fix_file_and_stdin_agree(tmp_path, capsys, monkeypatch):
    path = tmp_path / "leak.sh"
    path.write_text(LEAK, encoding="utf-8")
    rc_file, _, _ = run(capsys, "check", "--fix", "--profile", "ov2", str(path))
    rc_stdin, _, _ = run(capsys, "check", "--fix", "--profile", "ov2", "-", stdin=LEAK, monkeypatch=monkeypatch)
    assert rc_file == rc_stdin == 0


# ---------------------------------------------------------------- 4. hard links

def test_fix_keeps_a_hard_link(tmp_path, capsys):
    first = tmp_path / "stage2.sh"
    first.write_text(LEAK, encoding="utf-8")
    first.chmod(0o750)
    second = tmp_path / "stage2-copy.sh"
    os.link(first, second)
    inode = first.stat().st_ino
    rc, _, _ = run(capsys, "check", "--fix", "--profile", "ov2", str(first))
    assert rc == 0
    assert "export OFFLINE_PACKED_DATA='1'" in first.read_text(encoding="utf-8")
    assert second.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")  # before: the old text
    assert first.stat().st_ino == second.stat().st_ino == inode and first.stat().st_nlink == 2
    assert (first.stat().st_mode & 0o777) == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stage2-copy.sh", "stage2.sh"]


def test_a_hard_linked_file_changed_since_it_was_read_is_not_written(tmp_path, capsys, monkeypatch):
    import packgate.core.engine as engine
    first = tmp_path / "stage2.sh"
    first.write_text(LEAK, encoding="utf-8")
    second = tmp_path / "other.sh"
    os.link(first, second)
    real_fix_all = engine.fix_all

    def edit_meanwhile(text, **kwargs):  # the user saves the file (through the other name) meanwhile
        second.write_text(LEAK + "# edited\n", encoding="utf-8")
        return real_fix_all(text, **kwargs)
    monkeypatch.setattr(engine, "fix_all", edit_meanwhile)
    rc, _, err = run(capsys, "check", "--fix", "--profile", "ov2", str(first))
    assert rc == 2 and "not fixed: the file changed on disk since packgate read it" in err
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8") == LEAK + "# edited\n"


def test_a_failing_write_to_a_hard_linked_file_puts_the_old_text_back(tmp_path, capsys, monkeypatch):
    import errno
    first = tmp_path / "stage2.sh"
    first.write_text(LEAK, encoding="utf-8")
    os.link(first, tmp_path / "other.sh")

    def full_disk(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "fsync", full_disk)
    rc, _, err = run(capsys, "check", "--fix", "--profile", "ov2", str(first))
    assert rc == 2 and "cannot write the fixes: No space left on device" in err
    assert first.read_text(encoding="utf-8") == (tmp_path / "other.sh").read_text(encoding="utf-8") == LEAK
