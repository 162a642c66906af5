"""The bash side: run a script once per input in a scratch folder and read what each launch got."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from packgate.core import gates as G

from .models import ranks_env
from .stubs import make_scratch

GATES = ("OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA")
MBS_FLAG = "--micro-batch-size"
TIMEOUT = 60.0  # a hung script is caught; a loaded 2-core machine never waits this long for a stub
ENTRY_POINT = "train.py"  # `python .../train.py` starts the trainer (FACTS §6)
DOCKER_VALUE_OPTIONS = frozenset(
    "-e --env --env-file -v --volume --name --gpus --shm-size --ipc -w --workdir --network --net "
    "-u --user --entrypoint -p --publish --mount --runtime --device --cpus -m --memory --ulimit "
    "--cap-add --cap-drop --security-opt -l --label -h --hostname --add-host --platform --pull "
    "--restart --log-driver --log-opt --pid --uts --userns --cgroupns --tmpfs".split())


@dataclass(frozen=True)
class Input:
    """One way to call a script: caller variables, positional arguments, files to create."""

    env: tuple = ()  # (name, value) pairs
    args: tuple = ()
    files: tuple = ()  # relative paths created in the scratch folder first ("d/" is a folder)

    @classmethod
    def parse(cls, text: str) -> "Input":
        """`NAME=value +file -- arg ...` (shell words): variables, files, then arguments."""
        words = shlex.split(text)
        env, files, args = [], [], []
        rest = words
        if "--" in words:
            cut = words.index("--")
            rest, args = words[:cut], words[cut + 1:]
        for w in rest:
            if w.startswith("+"):
                files.append(w[1:])
            elif "=" in w and w.split("=", 1)[0].isidentifier():
                env.append(tuple(w.split("=", 1)))
            else:
                raise ValueError(f"input word {w!r} is neither NAME=value nor +file (use -- before arguments)")
        return cls(tuple(env), tuple(args), tuple(files))

    def describe(self) -> str:
        """The input as it was written."""
        parts = [f"{k}={shlex.quote(v)}" for k, v in self.env] + [f"+{f}" for f in self.files]
        if self.args:
            parts += ["--", *map(shlex.quote, self.args)]
        return " ".join(parts) or "(no input)"


@dataclass(frozen=True)
class Observed:
    """What one launch received when bash ran it."""

    launcher: str  # the stub's name (torchrun, python, docker, ...) or <end>
    argv: tuple
    gates: tuple  # per GATES: the value, or None when unset
    mbs: Optional[str]  # the last --micro-batch-size value, None when absent
    sft: bool
    pretrain: bool
    line: Optional[int]  # the line of the script's own shell that started it
    input: Input = field(compare=False, default=Input())
    env: tuple = field(compare=False, default=())  # its whole environment: sorted (name, value) pairs

    def describe(self) -> str:
        """BMR=1 PACKED_DATA=unset VQA=unset mbs=1 style text."""
        bits = [f"{short_name(g)}={'unset' if v is None else repr(v)}" for g, v in zip(GATES, self.gates)]
        bits.append(f"mbs={'absent' if self.mbs is None else repr(self.mbs)}")
        if self.sft or self.pretrain:
            bits.append("online packing")
        return " ".join(bits)


@dataclass
class Run:
    """One run of a script: its launches, exit status, stderr and whether it timed out."""

    input: Input
    launches: list
    status: int
    stderr: str
    timed_out: bool = False


def short_name(name: str) -> str:
    return name.replace("OFFLINE_PACKING_", "").replace("OFFLINE_", "")


def copy_case(script: Path, extra_files: list, folder: Path) -> Path:
    """Copy the script and the files it may source ((source, relative path) pairs) into folder."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / script.name
    shutil.copyfile(script, target)
    for src, rel in extra_files:
        dest = folder / rel
        if src.is_dir():
            shutil.copytree(src, dest, dirs_exist_ok=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    return target


# Runs go on in threads. A child another thread forks holds every open file of this process
# until it execs, so a stub being written then is "busy" and bash cannot run it (ETXTBSY: the
# launch goes unrecorded). Writing the executables and starting a process take turns.
_EXEC_FILES = threading.Lock()


def run_script(script: Path, extra_files: list, inp: Input, scratch: Path) -> Run:
    """Run script (with the files it may source) under bash in scratch with the given input."""
    with _EXEC_FILES:
        target = copy_case(script, extra_files, scratch)
        os.chmod(target, 0o755)
        paths = make_scratch(scratch, script.name)
    for rel in inp.files:
        p = scratch / rel
        if rel.endswith("/"):
            p.mkdir(parents=True, exist_ok=True)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.touch()
    home = scratch / ".oracle-home"
    home.mkdir(exist_ok=True)
    env = {"PATH": f"{paths['bin']}:/usr/bin:/bin", "HOME": str(home),
           "BASH_ENV": str(paths["bash_env"])}
    env.update(dict(inp.env))
    # the kernel honours the shebang (`#!/bin/bash -e`); a file without one goes to bash
    head = target.read_bytes()[:2]
    argv = [f"./{target.name}", *inp.args] if head == b"#!" else ["bash", f"./{target.name}", *inp.args]
    err_path = scratch / ".oracle-stderr"
    timed_out = False
    with open(err_path, "wb") as err:
        try:
            proc = _start(argv, scratch, env, err)
        except OSError:  # a shebang the kernel cannot run (`#!/bin/bash\r`): what `bash FILE` does
            proc = _start(["bash", *argv], scratch, env, err)
        try:
            status = proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            timed_out, status = True, -1
        finally:
            _kill_group(proc.pid)
            proc.wait()
    return Run(inp, _read_calls(paths["calls"], inp, scratch), status,
               err_path.read_text(encoding="utf-8", errors="replace"), timed_out)


def _start(argv: list, cwd: Path, env: dict, err) -> subprocess.Popen:
    with _EXEC_FILES:  # Popen returns once the child has exec'd: no file of ours stays open in it
        return subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                                executable=shutil.which("bash") if argv[0] == "bash" else None)


def _kill_group(pid: int) -> None:
    """End what the run left behind (background jobs); only the group this run started."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read_calls(calls: Path, inp: Input, scratch: Path) -> list:
    out = []
    for argv_file in sorted(calls.glob("*.argv")):
        stem = argv_file.with_suffix("")
        argv = tuple(argv_file.read_bytes().decode("utf-8", "replace").split("\0")[:-1])
        env = _read_env(stem.with_suffix(".env"))
        line_text = stem.with_suffix(".line").read_text(encoding="utf-8").strip() \
            if stem.with_suffix(".line").exists() else ""
        line = int(line_text) if line_text.isdigit() else None
        launcher = argv[0]
        if launcher == "docker":
            seen = _docker_launch(argv, env, scratch)
            if seen is None:
                continue
            argv, env = seen
            launcher = argv[0]  # the launch inside the container
        elif launcher != "<end>" and not _is_training_launch(argv):
            continue
        else:
            env = ranks_env(launcher, argv, env, scratch)  # srun --export, mpirun -x, deepspeed's nodes
        gates = tuple(env.get(g) for g in GATES)
        words = argv[1:] if launcher != "<end>" else ()
        out.append(Observed(launcher, argv, gates, _mbs(words), "--packing-sft-data" in words,
                            "--packing-pretrain-data" in words, line, inp, tuple(sorted(env.items()))))
    return out


def _read_env(path: Path) -> dict:
    if not path.exists():
        return {}
    out = {}
    for item in path.read_bytes().decode("utf-8", "replace").split("\0"):
        if "=" in item:
            k, v = item.split("=", 1)
            out[k] = v
    return out


def _is_training_launch(argv: tuple) -> bool:
    """Which recorded commands start the trainer: the launchers and training modules of
    packgate's table (core/gates.py), each read from the argv bash handed it (FACTS §6)."""
    name, words = argv[0], argv[1:]
    if name in G.LAUNCHERS:
        return True
    if name in G.LAUNCHER_SUBCOMMANDS:  # `accelerate launch`
        return bool(words) and words[0] == G.LAUNCHER_SUBCOMMANDS[name]
    if name in G.PYTHONS:
        for i, w in enumerate(words):
            if w == "-m":
                return i + 1 < len(words) and _training_module(words[i + 1])
            if not w.startswith("-"):
                return w.endswith(ENTRY_POINT)
    return False


def _training_module(module: str) -> bool:
    """`python -m MODULE`: one of the training modules, or a module inside one."""
    return any(module == m or module.startswith(m + ".") for m in G.TRAINING_MODULES)


def _mbs(words) -> Optional[str]:
    """argparse keeps the last --micro-batch-size (either spelling)."""
    value = None
    for i, w in enumerate(words):
        if w == MBS_FLAG and i + 1 < len(words):
            value = words[i + 1]
        elif w.startswith(MBS_FLAG + "="):
            value = w[len(MBS_FLAG) + 1:]
    return value


def _docker_launch(argv: tuple, host_env: dict, scratch: Path):
    """`docker run ... IMAGE CMD`: the container's environment (-e, --env-file) and the launch
    inside its command, as docker documents them; None when no training launch runs inside
    (or docker would refuse to start: an --env-file that does not exist)."""
    words = list(argv[1:])
    if not words or words[0] != "run":
        return None
    env: dict = {}
    i = 1
    while i < len(words) and words[i].startswith("-"):
        opt, value = words[i], None
        if "=" in opt and opt.startswith("--"):
            opt, value = opt.split("=", 1)
        elif opt in DOCKER_VALUE_OPTIONS:
            i += 1
            value = words[i] if i < len(words) else ""
        if opt in ("-e", "--env"):
            name, eq, val = value.partition("=")
            if eq:
                env[name] = val
            elif name in host_env:
                env[name] = host_env[name]
        elif opt == "--env-file":
            path = scratch / value
            if not path.is_file():
                return None
            for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
                raw = raw.strip()
                if not raw or raw.startswith("#"):
                    continue
                name, eq, val = raw.partition("=")
                if eq:
                    env[name] = val
                elif name in host_env:
                    env[name] = host_env[name]
        i += 1
    command = words[i + 1:]  # after the image
    if len(command) >= 3 and command[0] in ("bash", "sh") and command[1].startswith("-") \
            and "c" in command[1]:
        lexer = shlex.shlex(command[2], posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        command = list(lexer)
    for j, w in enumerate(command):
        inner = (w.rsplit("/", 1)[-1], *command[j + 1:])
        if _is_training_launch(inner):
            end = next((k for k in range(j + 1, len(command)) if command[k] in ("&&", "||", ";", "|")),
                       len(command))
            return tuple([inner[0], *command[j + 1:end]]), env
    return None
