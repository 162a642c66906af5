"""Models of the tools that decide a launch's environment by their own rules, written from their
documentation and not from packgate's tables: `sudo` (a stub that runs its command the way
sudoers(5)'s default `env_reset` does), and what the ranks of `srun` (its `--export` manual),
Open MPI's `mpirun` on other hosts (`-x`) and a multi-node `deepspeed` (its runner's forwarded
prefixes and `.deepspeed_env`) see, computed from what their recording stubs got."""

from __future__ import annotations

from pathlib import Path

# sudo(8): the options whose value is the next word
_SUDO_VALUES = ("-u -g -C -D -h -p -r -t -U -T -R --user --group --close-from --chdir --host --prompt "
                "--role --type --other-user --command-timeout --chroot").split()

# Run as the `sudo` stub. sudoers(5), env_reset (on by default): the command gets TERM and PATH
# from the caller, HOME, MAIL, SHELL, LOGNAME, USER set for the target user (root here) and the
# SUDO_* variables; `-E`/`--preserve-env` keeps the caller's environment, `--preserve-env=A,B`
# those names as well; NAME=value words before the command are set (allowed for a command ALL).
SUDO_STUB = r"""#!/usr/bin/python3
import os, sys
values = set(%(values)r)
args = sys.argv[1:]
keep_all, keep = False, []
while args:
    a = args[0]
    if a == "--":
        args = args[1:]
        break
    if a in ("-E", "--preserve-env"):
        keep_all = True
    elif a.startswith("--preserve-env="):
        keep += a.split("=", 1)[1].split(",")
    elif a in values:
        args = args[1:]
    elif a.startswith("--"):
        pass
    elif a.startswith("-") and len(a) > 1:
        for k, letter in enumerate(a[1:], start=1):
            if letter == "E":
                keep_all = True
            elif "-" + letter in values:
                if k == len(a) - 1:
                    args = args[1:]
                break
    else:
        break
    args = args[1:]
caller = dict(os.environ)
if keep_all:
    env = dict(caller)
else:
    env = {k: caller[k] for k in ["TERM", "PATH"] + keep if k in caller}
    env.update(HOME="/root", MAIL="/var/mail/root", SHELL="/bin/sh", LOGNAME="root", USER="root",
               SUDO_USER="root", SUDO_UID="0", SUDO_GID="0", SUDO_COMMAND=" ".join(args))
while args and "=" in args[0] and args[0].split("=", 1)[0].isidentifier():
    name, value = args[0].split("=", 1)
    env[name] = value
    args = args[1:]
if not args:
    sys.exit(1)
os.execvpe(args[0], args, env)
"""


def sudo_stub() -> str:
    """The text of the `sudo` stub."""
    return SUDO_STUB % {"values": tuple(_SUDO_VALUES)}


# srun(1): the options whose value may be the next word (the long ones also take `=value`)
_SRUN_VALUES = frozenset((
    "-A -b -c -d -D -e -i -J -L -m -n -N -o -p -q -t -w -x -C -G -T -W -r -K --account --begin "
    "--cpus-per-task --dependency --chdir --error --input --job-name --licenses --distribution --ntasks "
    "--nodes --output --partition --qos --time --nodelist --exclude --constraint --gpus --threads --wait "
    "--mem --mem-per-cpu --mem-per-gpu --gres --gpus-per-node --gpus-per-task --ntasks-per-node --cpu-bind "
    "--mpi --export --reservation --comment --nodefile --relative --kill-on-bad-exit --signal --container "
    "--network").split())


def _options(words: list, values: frozenset) -> list:
    """(option, value) pairs before the program (`--opt=value`, `--opt value`, switches: None)."""
    out, i = [], 0
    while i < len(words) and words[i].startswith("-") and words[i] not in ("-", "--"):
        w = words[i]
        if w.startswith("--") and "=" in w:
            out.append(tuple(w.split("=", 1)))
        elif w in values and i + 1 < len(words):
            out.append((w, words[i + 1]))
            i += 1
        else:
            out.append((w, None))
        i += 1
    return out


def srun_env(words: list, env: dict) -> dict:
    """What srun's tasks see (the srun manual, `--export`): ALL when it is absent; NONE: none of
    the caller's variables; a list: the SLURM_* variables and the listed NAME (the caller's
    value) and NAME=value; ALL in the list: the caller's environment and the NAME=value items."""
    spec = None
    for opt, value in _options(words, _SRUN_VALUES):
        if opt == "--export":
            spec = value or ""
    if spec is None:
        return env
    items = spec.split(",")
    out = dict(env) if "ALL" in items else {k: v for k, v in env.items() if k.startswith("SLURM_")}
    for item in items:
        name, eq, value = item.partition("=")
        if eq:
            out[name] = value
        elif name not in ("ALL", "NONE") and name in env:
            out[name] = env[name]
    return out


_MPIRUN_VALUES = frozenset((
    "-x -np -n -c --np -H --host -host --hostfile -hostfile --machinefile -machinefile --default-hostfile "
    "-npernode --npernode -N --map-by --rank-by --bind-to --mca -mca --prefix -wdir --wdir "
    "--output-filename").split())


def mpirun_env(words: list, env: dict) -> dict:
    """What Open MPI's ranks see: those on this host inherit mpirun's environment; when `-H`
    names another host, the ranks there get only the `-x NAME[=value]` variables (and mpirun's
    own OMPI_*): the view of those ranks is returned then, else this host's."""
    sent, remote = {}, False
    for opt, value in _options(words, _MPIRUN_VALUES):
        if opt == "-x" and value:
            name, eq, val = value.partition("=")
            if eq:
                sent[name] = val
            elif name in env:
                sent[name] = env[name]
        elif opt in ("-H", "--host", "-host") and value:
            remote = remote or any(h.split(":")[0] not in ("localhost", "127.0.0.1") for h in value.split(","))
    if not remote:
        local = dict(env)
        local.update({k: v for k, v in sent.items()})
        return local
    out = {k: v for k, v in env.items() if k.startswith("OMPI_")}
    out.update(sent)
    return out


# deepspeed/launcher/runner.py's EXPORT_ENVS and deepspeed/nebula/constants.py's NEBULA_EXPORT_ENVS
_DEEPSPEED_FORWARDED = (
    "MLFLOW", "NCCL", "PYTHON", "MV2", "UCX", "DLTS_JOB_ID", "DLTS_NUM_WORKER", "NEBULA_PERSISTENT_STORAGE_PATH",
    "NEBULA_PERSISTENT_TIME_INTERVAL", "AML_RUN_ID", "AZUREML_RUN_TOKEN", "AZUREML_WORKSPACE_SCOPE",
    "AZUREML_EXPERIMENT_SCOPE", "AZUREML_RUN_HISTORY_SERVICE_ENDPOINT", "AZUREML_RUN_ID",
    "NEBULA_MEMORY_BUFFER_SIZE", "AZUREML_PARAMETER_ITPJOB_NAME", "FC_TASKROLE_NAME", "FC_TASK_INDEX",
    "MASTER_HOST", "LOCAL_HOST", "AZUREML_BLOB_ACCOUNT_NAME", "AZUREML_BLOB_ACCOUNT_KEY")
_DEEPSPEED_VALUES = frozenset((
    "-H --hostfile -i --include -e --exclude --num_nodes --num_gpus --num-gpus --master_port --master_addr "
    "--launcher --launcher_args --ssh_port --min_elastic_nodes --max_elastic_nodes --save_pid "
    "--enable_each_rank_log --bind_core_list --autotuning --venv_script --node_rank").split())


def deepspeed_env(words: list, env: dict, cwd: Path) -> dict:
    """What deepspeed's ranks see: on one node the runner's environment; on several (its runner:
    `--num_nodes` above 1, `--include` naming hosts joined by @, `--force_multi`) every rank is
    started over pdsh/ssh with only the exported names of the forwarded prefixes and the lines of
    `.deepspeed_env` in the working folder (the scratch folder; the oracle's home has none)."""
    multi = False
    for opt, value in _options(words, _DEEPSPEED_VALUES):
        if opt == "--num_nodes" and value and value.isdigit() and int(value) > 1:
            multi = True
        elif opt in ("-i", "--include") and value and len([h for h in value.split("@") if h]) > 1:
            multi = True
        elif opt == "--force_multi":
            multi = True
    if not multi:
        return env
    out = {k: v for k, v in env.items() if k.startswith(_DEEPSPEED_FORWARDED)}
    path = cwd / ".deepspeed_env"
    if path.is_file():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            name, eq, value = line.partition("=")
            if eq:
                out[name.strip()] = value.strip()
    return out


def ranks_env(launcher: str, argv: tuple, env: dict, cwd: Path) -> dict:
    """What the ranks of a recorded launch see, by the launcher's own rules (argv[0] its name)."""
    words = list(argv[1:])
    if launcher == "srun":
        return srun_env(words, env)
    if launcher == "mpirun":
        return mpirun_env(words, env)
    if launcher == "deepspeed":
        return deepspeed_env(words, env, cwd)
    return env
