"""core/pyfiles.py's stamp: what the contract index and the gate scan were built from changed
when a file they read changed or went away, and also when a `.py` file was added or removed in a
folder they walked (an editor without file watching saves a new train.py: the next
revalidation, on open or save, must see it)."""

from __future__ import annotations

import os

from packgate.core import project
from packgate.core.code import index as ci
from packgate.core.pyfiles import python_files, stamp_changed

READER = "import os\nBMR = int(os.environ.get('OFFLINE_PACKING_BMR', 0))\n"


def _touch_later(path) -> None:
    """Give path an mtime a second later (filesystems with a coarse clock could miss a change)."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def _stamp(root) -> tuple:
    folders: list = []
    files = [(p, st.st_mtime_ns, st.st_size) for p, st in python_files(str(root), folders) if st is not None]
    return tuple(files + folders)


def test_a_file_added_removed_or_changed_is_seen(tmp_path):
    pkg = tmp_path / "aiak_training_llm" / "data"
    pkg.mkdir(parents=True)
    (pkg / "a.py").write_text(READER)
    stamp = _stamp(tmp_path)
    assert not stamp_changed(stamp)
    (pkg / "b.py").write_text(READER)
    _touch_later(pkg)
    assert stamp_changed(stamp)
    stamp = _stamp(tmp_path)
    (pkg / "b.py").unlink()
    _touch_later(pkg)
    assert stamp_changed(stamp)
    stamp = _stamp(tmp_path)
    (pkg / "a.py").write_text(READER + "# 训练\n")
    assert stamp_changed(stamp)


def test_a_new_folder_of_code_is_seen(tmp_path):
    (tmp_path / "train.py").write_text("print(1)\n")
    stamp = _stamp(tmp_path)
    (tmp_path / "newpkg").mkdir()
    _touch_later(tmp_path)
    assert stamp_changed(stamp)


def test_skipped_folders_are_not_watched(tmp_path):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "tests").mkdir()
    stamp = _stamp(tmp_path)
    assert [p for p, _, size in stamp if size is None] == [str(tmp_path)]
    (tmp_path / "tests" / "t.py").write_text(READER)
    _touch_later(tmp_path / "tests")
    assert not stamp_changed(stamp)


def test_the_indexes_are_rebuilt_with_the_new_file(tmp_path):
    (tmp_path / "train.py").write_text("print(1)\n")
    first = ci.contract_index(str(tmp_path))
    gates = project.scan(str(tmp_path))
    assert "OFFLINE_PACKING_BMR" not in first.names_read() and not gates.reads
    (tmp_path / "reader.py").write_text(READER)
    _touch_later(tmp_path)
    assert "OFFLINE_PACKING_BMR" in ci.contract_index(str(tmp_path), revalidate=True).names_read()
    assert stamp_changed(gates.stamp) and project.scan(str(tmp_path)).reads
