"""The scratch folder a script runs in: recording stubs for the launchers, wrappers that only
pass their command on, and the BASH_ENV file that tells each record which line launched it."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from packgate.core import gates as G

from .models import sudo_stub

# Wrappers whose CPU or NUMA lists name hardware this machine may lack (taskset refuses a CPU a
# 2-core machine does not have): always stubs, even where the real one is installed.
HARDWARE_BOUND = frozenset({"numactl", "taskset"})
SYSTEM_PATH = "/usr/bin:/bin"  # what the script's PATH holds after the stubs


def recording() -> tuple:
    """The commands that start the trainer, or may: every launcher packgate knows (core/gates.py:
    a launcher taught there is recorded here without a change), the Python interpreters (python
    runs anything; the harness decides from the argv whether a record is a training launch), and
    docker (the launch inside its container is read from its argv). Each stub records and runs
    nothing."""
    return tuple(sorted(G.LAUNCHERS | set(G.LAUNCHER_SUBCOMMANDS))) + tuple(G.PYTHONS) + ("docker",)


@functools.lru_cache(maxsize=1)
def _bash_words() -> frozenset:
    """Bash's builtins and keywords (exec, command, time...): bash runs those wrappers itself."""
    bash = shutil.which("bash")
    if bash is None:
        return frozenset()
    out = subprocess.run([bash, "--norc", "--noprofile", "-c", "compgen -b; compgen -k"],
                         capture_output=True, text=True, timeout=30, env={"PATH": SYSTEM_PATH})
    return frozenset(out.stdout.split())


def stubbed_wrappers() -> dict:
    """The wrappers of packgate's table (core/gates.py WRAPPER_SYNTAX) that run as stubs here:
    those bash does not run itself and that are missing or hardware-bound; the others run for
    real. name -> (the options that take a value, the operands before the command)."""
    builtin = _bash_words()
    return {name: (takes, operands) for name, (takes, operands) in sorted(G.WRAPPER_SYNTAX.items())
            if name not in builtin
            and (name in HARDWARE_BOUND or shutil.which(name, path=SYSTEM_PATH) is None)}

# Runs under `env -i` too, so every external tool is called by its absolute path. The record is
# three files named after the stub's pid: argv (NUL separated), env (env -0) and line (the line
# of the script's own shell that started it, found by walking up the parent pids).
_RECORD = r"""#!/bin/sh
d='{calls}'
f="$d/$$"
while [ -e "$f.argv" ]; do f="$f.x"; done
printf '%s\0' '{name}' "$@" > "$f.tmp"
/usr/bin/env -0 > "$f.env"
p=$$
line=
i=0
while [ "$i" -lt 12 ] && [ -n "$p" ] && [ "$p" != 0 ]; do
    if [ -r '{lines}'/"$p" ]; then read -r line < '{lines}'/"$p"; break; fi
    read -r stat < /proc/"$p"/stat || break
    rest=${{stat##*) }}
    set -- $rest
    p=$2
    i=$((i + 1))
done
printf '%s' "$line" > "$f.line"
/bin/mv "$f.tmp" "$f.argv"
{tail}
"""

_WRAPPER = r"""#!/bin/sh
# skip this wrapper's options (and the value of those that take one), then run the command
takes=' {takes} '
while [ $# -gt 0 ]; do
    case "$1" in
        --) shift; break ;;
        --*=*) shift ;;
        -*) case "$takes" in *" $1 "*) shift 2 ;; *) shift ;; esac ;;
        *) break ;;
    esac
done
{operand}
exec "$@"
"""

# Sourced by the script's bash before the script (BASH_ENV); only in the script's own shell,
# not in the `bash -c` or `bash FILE` children it starts. The DEBUG trap writes the line of each
# simple command to a file named after the shell's pid (functrace: functions and subshells
# too); the EXIT trap records the exported environment at the end, for files without a launch.
_BASH_ENV = r"""if [ -z "${{BASH_EXECUTION_STRING+x}}" ] && [ "$0" = '{script}' ]; then
    set -T
    trap 'builtin printf "%s\n" "$LINENO" > "{lines}/$BASHPID"' DEBUG
    trap '{end}' EXIT
fi
"""


def make_scratch(root: Path, script_name: str) -> dict:
    """Write the stubs and the BASH_ENV file under root; the paths the run needs."""
    bin_dir, calls, lines = root / ".oracle-bin", root / ".oracle-calls", root / ".oracle-lines"
    for d in (bin_dir, calls, lines):
        d.mkdir(parents=True, exist_ok=True)
    for name in recording():
        _executable(bin_dir / name, _RECORD.format(calls=calls, lines=lines, name=name, tail="exit 0"))
    for name, (takes, operands) in stubbed_wrappers().items():
        # the operands before the command: taskset's CPU mask or list, timeout's duration
        operand = "\n".join(['[ $# -gt 0 ] && shift'] * operands)
        _executable(bin_dir / name, _WRAPPER.format(takes=" ".join(sorted(takes)), operand=operand))
    _executable(bin_dir / "sudo", sudo_stub())  # sudoers(5)'s default env_reset, never the real sudo
    end = bin_dir.parent / ".oracle-end"
    _executable(end, _RECORD.format(calls=calls, lines=lines, name="<end>", tail="exit 0"))
    bash_env = root / ".oracle-bash-env"
    bash_env.write_text(_BASH_ENV.format(script=f"./{script_name}", lines=lines, end=end),
                        encoding="utf-8")
    return {"bin": bin_dir, "calls": calls, "bash_env": bash_env}


def _executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o755)
