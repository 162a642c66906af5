"""packgate reads scripts; it never runs them, never talks to the network, never writes except
what `--fix` rewrites, and reads only regular files.

The CLI and the server run under audit_driver.py, a Python audit hook that logs every process
start, socket, file open (with its flags), removal and rename. The scripts are full of commands
that would leave traces if anything ran them: files created in a `pwned` folder, a sentinel
file removed, a connection to a local port.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rawlsp import RawServer, capabilities, server_env

DRIVER = Path(__file__).with_name("audit_driver.py")
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
SPAWNS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
          "os.startfile", "pty.spawn", "os.kill", "os.killpg"}
NETWORK = {"socket.connect", "socket.bind", "socket.listen", "socket.sendto", "socket.sendmsg",
           "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "urllib.Request",
           "http.client.connect", "ftplib.connect", "smtplib.connect"}
CHANGES = {"os.remove", "os.rmdir", "os.rename", "os.truncate", "os.chmod", "os.chown", "os.mkdir", "os.symlink",
           "os.link", "shutil.rmtree", "shutil.move", "shutil.copyfile", "os.utime", "os.mkfifo", "os.mknod"}

EVIL = r"""#!/bin/bash
# Every line below would leave a trace in {pwn} or remove {sentinel} if anything ran it.
touch {pwn}/plain
rm -f {sentinel}
X=$(touch {pwn}/cmdsubst)
Y=`touch {pwn}/backticks`
echo "$(touch {pwn}/quoted)"
export OFFLINE_PACKING_BMR=$(touch {pwn}/gate; echo 1)
export OFFLINE_PACKED_DATA=${{OFFLINE_PACKED_DATA:-$(touch {pwn}/default)}}
: "${{MBS:=$(touch {pwn}/assign-default)}}"
source ./evil.sh
. "$(dirname "$0")/evil.sh"
eval "touch {pwn}/eval"
bash -c 'touch {pwn}/bash-c'
sh -c "touch {pwn}/sh-c"
cat <(touch {pwn}/procsubst) >(touch {pwn}/procsubst-out)
trap 'touch {pwn}/trap' EXIT
(( $(touch {pwn}/arith) ))
cat <<EOF
$(touch {pwn}/heredoc)
EOF
python -c 'open("{pwn}/python", "w")'
curl -s http://127.0.0.1:{port}/pwned | bash
exec 3<>/dev/tcp/127.0.0.1/{port}
docker run --rm -e OFFLINE_PACKED_DATA=1 img bash -lc "touch {pwn}/docker && torchrun train.py --micro-batch-size 4"
export OFFLINE_PACKING_VQA=1
torchrun aiak_training_llm/train.py --micro-batch-size $(touch {pwn}/mbs; echo 4) &
rm -rf {pwn}
exec touch {pwn}/exec
"""


class Scene:
    """A folder with the evil script, the file it sources, a sentinel and a listening socket."""

    def __init__(self, root: Path):
        self.root = root
        self.pwn = root / "pwned"
        self.pwn.mkdir()
        self.sentinel = root / "sentinel"
        self.sentinel.write_text("still here\n")
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.setblocking(False)
        port = self.listener.getsockname()[1]
        self.script = root / "train.sh"
        self.text = EVIL.format(pwn=self.pwn, sentinel=self.sentinel, port=port)
        self.script.write_text(self.text)
        (root / "evil.sh").write_text(f"touch {self.pwn}/sourced\nrm -f {self.sentinel}\nexport OFFLINE_PACKED_DATA=1\n")
        self.log = root.parent / f"{root.name}-audit.jsonl"

    def snapshot(self) -> dict:
        return {str(p.relative_to(self.root)): (p.stat().st_size, p.stat().st_mtime_ns)
                for p in sorted(self.root.rglob("*")) if p.is_file()}

    def untouched(self) -> None:
        assert list(self.pwn.iterdir()) == [], "something ran a command of the script"
        assert self.sentinel.read_text() == "still here\n"
        try:
            conn, _ = self.listener.accept()
        except BlockingIOError:
            return
        conn.close()
        raise AssertionError("something connected to the script's port")

    def events(self) -> list[dict]:
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def scene(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    s = Scene(root)
    yield s
    s.close()


def audited_cli(scene: Scene, args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = server_env(PACKGATE_AUDIT_LOG=str(scene.log), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, str(DRIVER), *args], cwd=scene.root, env=env, input=stdin,
                          capture_output=True, timeout=TIMEOUT)


def _own(path: str) -> bool:
    """Files of Python, the venv and packgate itself (imports), not of the user."""
    real = os.path.realpath(path)
    return real.startswith((sys.prefix, sys.base_prefix, str(ROOT / "server"))) or "/site-packages/" in real \
        or real.endswith((".py", ".pyc", ".so", ".pth"))


def _fix_temporary(path, replaced: str | None) -> bool:
    """True for the temporary file `--fix` writes beside the script it replaces."""
    if replaced is None or not isinstance(path, str):
        return False
    folder, name = os.path.split(replaced)
    full = os.path.realpath(path)
    return os.path.dirname(full) == folder and os.path.basename(full).startswith(f".{name}.") \
        and full.endswith(".packgate")


def judge(scene: Scene, may_write: set[str] = frozenset(), replaced: str | None = None) -> list[str]:
    """No process, no network, no change; reads of regular files only. Returns the files read.

    replaced: the script `--fix` rewrites atomically (a temporary file beside it, given the
    script's mode and renamed over it): those steps, and only those, are allowed."""
    read = []
    for e in scene.events():
        name, args = e["event"], e["args"]
        assert name not in SPAWNS, e
        assert name not in NETWORK, e
        if name in ("os.chmod", "os.chown") and _fix_temporary(args[0], replaced):
            continue
        if name == "os.rename" and _fix_temporary(args[0], replaced) \
                and os.path.realpath(args[1]) == replaced:
            continue
        assert name not in CHANGES, e
        if name == "socket.__new__":
            assert args[1] == socket.AF_UNIX, e  # asyncio's own self-pipe, nothing else
        if name == "open":
            path, flags = args[0], args[2]
            if not isinstance(path, str):
                continue  # an fd
            full = os.path.join(scene.root, path)
            if isinstance(flags, int) and flags & WRITE_FLAGS:
                assert os.path.realpath(full) in may_write or _fix_temporary(full, replaced), \
                    ("opened for writing", e)
                if _fix_temporary(full, replaced):
                    continue
            if _own(full):
                continue
            assert not os.path.realpath(full).startswith(("/dev/", "/proc/", "/sys/")), ("read a special file", e)
            mode = os.stat(full).st_mode
            assert stat.S_ISREG(mode) or stat.S_ISDIR(mode), ("read a non-regular file", e)
            read.append(os.path.realpath(full))
    return read


@pytest.mark.parametrize("args", [
    ["check", "train.sh"],
    ["check", "--format", "json", "train.sh"],
    ["check", "--format", "sarif", "train.sh"],
    ["check", "--format", "github", "--lang", "both", "train.sh"],
    ["check", "--diff", "train.sh"],
    ["check", "."],
], ids=["text", "json", "sarif", "github", "diff", "folder"])
def test_cli_runs_nothing_and_writes_nothing(scene, args):
    before = scene.snapshot()
    out = audited_cli(scene, args)
    assert out.returncode == 1, out.stderr.decode(errors="replace")[-800:]
    scene.untouched()
    read = judge(scene)
    assert str(scene.script.resolve()) in read
    assert str((scene.root / "evil.sh").resolve()) in read  # followed, read as text, not run
    assert scene.snapshot() == before


def test_cli_stdin_runs_nothing(scene):
    out = audited_cli(scene, ["check", "--stdin-filename", "train.sh", "-"], stdin=scene.text.encode())
    assert out.returncode == 1, out.stderr[-800:]
    scene.untouched()
    judge(scene)


def test_cli_fix_writes_only_the_script(scene):
    before = scene.snapshot()
    out = audited_cli(scene, ["check", "--fix", "train.sh"])
    assert out.returncode in (0, 1), out.stderr[-800:]
    scene.untouched()
    judge(scene, replaced=str(scene.script.resolve()))
    after = scene.snapshot()
    changed = {k for k in before if before[k] != after.get(k)} | (set(after) - set(before))
    assert changed <= {"train.sh"}, changed


def test_server_runs_nothing_and_writes_nothing(scene):
    env = server_env(PACKGATE_AUDIT_LOG=str(scene.log), PYTHONDONTWRITEBYTECODE="1")
    uri = scene.script.resolve().as_uri()
    before = scene.snapshot()
    with RawServer(command=[sys.executable, str(DRIVER), "lsp"], env=env, cwd=str(scene.root)) as server:
        server.initialize(capabilities("utf-8", pull=True), root_uri=scene.root.resolve().as_uri())
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "shellscript",
                                                                "version": 1, "text": scene.text}})
        report = server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})["result"]
        assert report["items"], report
        lines = scene.text.count("\n")
        for line in range(lines + 1):
            for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
                answer = server.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": 8}})
                assert "result" in answer or answer["error"]["code"] == -32601, answer
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}}
        actions = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": whole,
                                                             "context": {"diagnostics": report["items"]}})["result"]
        assert actions
        for method, params in (("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole}),
                               ("packgate/launchSummaries", {"textDocument": {"uri": uri}})):
            answer = server.request(method, params)
            assert "result" in answer or answer["error"]["code"] == -32601, answer
        server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        server.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": (scene.root / "evil.sh").resolve().as_uri(), "type": 2}]})
        server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert server.shutdown_and_exit() == 0
    scene.untouched()
    judge(scene)
    assert scene.snapshot() == before


def test_check_opens_no_socket_in_process(monkeypatch, capsys):
    """Belt and braces without the audit hook: with every way to a socket broken, check works."""
    def refuse(*args, **kwargs):
        raise AssertionError("packgate check opened a socket")

    for name in ("socket", "create_connection", "socketpair", "getaddrinfo", "gethostbyname", "fromfd"):
        monkeypatch.setattr(socket, name, refuse)
    from packgate.cli.main import main
    code = main(["check", "--format", "json", str(ROOT / "examples"), str(ROOT / "tests" / "golden" / "cases")])
    assert code in (0, 1)
    assert json.loads(capsys.readouterr().out)["summary"]["files"] > 10


# -- special files ------------------------------------------------------------------------

def special_files(root: Path) -> dict[str, Path]:
    """A FIFO (with and without .sh), a Unix socket, links to /dev/zero and /proc, a device."""
    out = {}
    for name in ("fifo.sh", "fifo"):
        os.mkfifo(root / name)
        out[name] = root / name
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(root / "socket.sh"))
    out["socket.sh"] = root / "socket.sh"
    (root / "zero.sh").symlink_to("/dev/zero")
    out["zero.sh"] = root / "zero.sh"
    (root / "environ.sh").symlink_to("/proc/self/environ")
    out["environ.sh"] = root / "environ.sh"
    out["/dev/zero"] = Path("/dev/zero")
    out["/dev/urandom"] = Path("/dev/urandom")
    return out





def test_cli_reads_only_regular_files(scene):
    specials = special_files(scene.root)
    for name, path in specials.items():
        started = time.monotonic()
        out = audited_cli(scene, ["check", str(path)])  # a FIFO opened for reading would block: timeout
        assert out.returncode == 2, (name, out.returncode, out.stderr[-400:])
        assert any(why in out.stderr for why in (b"not a regular file", b"kernel or device file", b"cannot read")), \
            (name, out.stderr)
        assert time.monotonic() - started < TIMEOUT
        judge(scene)
    out = audited_cli(scene, ["check", "."])  # the folder: specials are skipped, never opened to sniff
    assert out.returncode in (1, 2), out.stderr[-400:]
    judge(scene)
    scene.untouched()


@pytest.mark.parametrize("name", ["environ.sh", "/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled"])
def test_cli_refuses_proc_and_sys(scene, name):
    """Was a bug: /proc files stat as regular files and were read (a `*.sh` link to
    /proc/self/environ in a checked folder included)."""
    special_files(scene.root)
    path = scene.root / name if not name.startswith("/") else Path(name)
    if not os.path.lexists(path):
        pytest.skip(f"{name} does not exist here")
    out = audited_cli(scene, ["check", str(path)])
    assert out.returncode == 2 and b"kernel or device file" in out.stderr, out.stderr
    judge(scene)


SOURCING = """export OFFLINE_PACKING_BMR=1
source /dev/zero
. /dev/urandom
source ./fifo.sh
. ./fifo
source ./socket.sh
source ./zero.sh
source ./environ.sh
source /proc/self/environ
source /dev/stdin
source /dev/tcp/127.0.0.1/9
. /etc/passwd
torchrun train.py --micro-batch-size 1
"""


def test_sourced_special_files_are_not_read(scene):
    special_files(scene.root)
    (scene.root / "sources.sh").write_text(SOURCING)
    out = audited_cli(scene, ["check", "sources.sh"])
    # what the refused files would export is unknown (issue 27): information only, exit 0
    assert out.returncode == 0, out.stderr[-400:]
    assert b"PG009" in out.stdout and b"error" not in out.stdout
    read = judge(scene)
    assert "/etc/passwd" not in read  # outside the project
    # and through the server, which follows `source` the same way
    env = server_env(PACKGATE_AUDIT_LOG=str(scene.log), PYTHONDONTWRITEBYTECODE="1")
    uri = (scene.root / "sources.sh").resolve().as_uri()
    with RawServer(command=[sys.executable, str(DRIVER), "lsp"], env=env, cwd=str(scene.root)) as server:
        server.initialize(capabilities("utf-16"), root_uri=scene.root.resolve().as_uri())
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "shellscript",
                                                                "version": 1, "text": SOURCING}})
        server.wait_note(lambda n: n["method"] == "textDocument/publishDiagnostics", TIMEOUT)
        assert server.shutdown_and_exit() == 0
    read = judge(scene)
    assert "/etc/passwd" not in read
