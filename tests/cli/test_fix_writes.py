"""`--fix` writes atomically: a temporary file beside the original, renamed over it."""

import errno
import os
import stat

import pytest

from packgate.cli.main import main

LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def launcher(tmp_path):
    path = tmp_path / "stage2.sh"
    path.write_text(LEAK, encoding="utf-8")
    path.chmod(0o750)
    return path


def test_fix_keeps_the_mode_and_leaves_no_temporary_file(launcher, capsys):
    inode = launcher.stat().st_ino
    rc, _, _ = run(capsys, "check", "--fix", "--profile", "ov2", str(launcher))
    assert rc == 0 and "export OFFLINE_PACKED_DATA='1'" in launcher.read_text()
    assert stat.S_IMODE(launcher.stat().st_mode) == 0o750
    assert launcher.stat().st_ino != inode  # a new file renamed over the old one, not a rewrite
    assert sorted(p.name for p in launcher.parent.iterdir()) == ["stage2.sh"]


def test_a_failing_write_leaves_the_original_intact(launcher, capsys, monkeypatch):
    def full_disk(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "fsync", full_disk)
    rc, out, err = run(capsys, "check", "--fix", "--profile", "ov2", str(launcher))
    assert rc == 2
    assert f"{launcher}: cannot write the fixes: No space left on device; the file is unchanged" in err
    assert launcher.read_text() == LEAK
    assert sorted(p.name for p in launcher.parent.iterdir()) == ["stage2.sh"]
    assert "[PG001 missing-companion]" in out  # the finding is still reported


def test_a_failing_rename_leaves_the_original_intact(launcher, capsys, monkeypatch):
    def refuse(src, dst):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(os, "replace", refuse)
    rc, _, err = run(capsys, "check", "--fix", "--profile", "ov2", str(launcher))
    assert rc == 2 and "cannot write the fixes" in err
    assert launcher.read_text() == LEAK
    assert sorted(p.name for p in launcher.parent.iterdir()) == ["stage2.sh"]


def test_a_file_changed_since_it_was_read_is_not_written(launcher, capsys, monkeypatch):
    import packgate.core.engine as engine
    real_fix_all = engine.fix_all

    def edit_meanwhile(text, **kwargs):  # the user saves the file while packgate works
        launcher.write_text(LEAK + "# edited\n")
        return real_fix_all(text, **kwargs)
    monkeypatch.setattr(engine, "fix_all", edit_meanwhile)
    rc, _, err = run(capsys, "check", "--fix", "--profile", "ov2", str(launcher))
    assert rc == 2 and "not fixed: the file changed on disk since packgate read it" in err
    assert launcher.read_text() == LEAK + "# edited\n"


def test_fix_through_a_symlink_replaces_the_target_and_keeps_the_link(launcher, capsys):
    link = launcher.parent / "link.sh"
    link.symlink_to(launcher.name)
    rc, _, _ = run(capsys, "check", "--fix", "--profile", "ov2", str(link))
    assert rc == 0 and link.is_symlink()
    assert "export OFFLINE_PACKED_DATA='1'" in launcher.read_text()


@pytest.fixture
def full_filesystem(tmp_path):
    """A 16 KiB tmpfs holding one launcher and a filler that takes every other byte
    (needs root and mount; skipped elsewhere)."""
    import shutil
    import subprocess
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)],
            capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    try:
        path = mount / "stage2.sh"
        path.write_text(LEAK, encoding="utf-8")
        with open(mount / "filler", "wb", buffering=0) as handle:
            try:
                while True:
                    handle.write(b"x" * 512)
            except OSError:
                pass
        yield path
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_leaves_the_launcher_whole(full_filesystem, capsys):
    rc, _, err = run(capsys, "check", "--fix", "--profile", "ov2", str(full_filesystem))
    assert rc == 2 and "No space left on device; the file is unchanged" in err
    assert full_filesystem.read_text() == LEAK
    assert sorted(p.name for p in full_filesystem.parent.iterdir()) == ["filler", "stage2.sh"]
