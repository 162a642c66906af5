"""`check` looks whether a project's Python code changed once a run, on its first script there:
every later script of the project takes what that look found. A later run looks again."""

from packgate.cli import check
from packgate.cli.main import main
from packgate.core import project
from packgate.core.code import index

SCRIPT = "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py\n"
READS_NOTHING = "import os\n\nprint(os.getcwd())\n"
READS_A_GATE = "import os\n\nPACK = os.environ.get('OFFLINE_PACKING_BMR', '0') == '1'\n"


def _project(root, code: str):
    (root / ".git").mkdir(parents=True)
    (root / "train.py").write_text(code, encoding="utf-8")
    for name in ("a.sh", "b.sh", "c.sh"):
        (root / name).write_text(SCRIPT, encoding="utf-8")
    return root


def test_the_first_script_of_each_project_looks(tmp_path):
    one, two = _project(tmp_path / "one", READS_NOTHING), _project(tmp_path / "two", READS_NOTHING)
    check._LOOKED.clear()
    assert check._revalidate(str(one / "a.sh"))
    assert not check._revalidate(str(one / "b.sh"))
    assert check._revalidate(str(two / "a.sh"))
    assert not check._revalidate(str(two / "c.sh")) and not check._revalidate(str(one / "c.sh"))


def test_a_run_stats_the_code_once_and_the_next_run_sees_it_changed(tmp_path, capsys, monkeypatch):
    root = _project(tmp_path / "repo", READS_NOTHING)
    monkeypatch.chdir(root)
    project.invalidate()
    index.invalidate()
    looks = []

    def counted(stamp):
        looks.append(stamp)
        return stamp_changed(stamp)

    stamp_changed = project.stamp_changed
    monkeypatch.setattr(project, "stamp_changed", counted)
    monkeypatch.setattr(index, "stamp_changed", counted)
    monkeypatch.setenv("PACKGATE_JOBS", "1")
    main(["check", "--color", "never", "a.sh", "b.sh", "c.sh"])  # the indexes are built: nothing to look at yet
    assert "Profile ov2 assumed" in capsys.readouterr().out
    looks.clear()
    (root / "train.py").write_text(READS_A_GATE, encoding="utf-8")
    main(["check", "--color", "never", "a.sh", "b.sh", "c.sh"])
    out = capsys.readouterr().out
    assert "Profile ov2 assumed" not in out  # the changed code was seen: the profile comes from it
    assert 1 <= len(looks) <= 2  # the gate scan and the contract index, for the first script alone
