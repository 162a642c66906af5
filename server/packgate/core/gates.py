"""What the training code does with each environment variable: the domain tables.

Sources: LLaVA-OneVision-2 `aiak_training_llm/` on main (see ../shared/FACTS.md of the project).
"""

from __future__ import annotations

import os

from .code.relations import Absent, Compare, Relation, RelationKind, Subject, Clause
from .records import TextEnum, record


class GateState(TextEnum):
    """What the training code makes of a gate's value."""

    ON = "on"
    OFF = "off"
    INVALID = "invalid"  # int() raises ValueError
    UNKNOWN = "unknown"  # the caller decides


class Verdict(TextEnum):
    """What one path to a launch (or a launch's paths together) does to packing."""

    OFF = "off"  # no packing
    LEAK = "leak"  # encoding on, batch off: cross-sample attention leakage
    CORRUPT = "corrupt"  # encoding off, batch on
    OK = "ok"  # both on
    INVALID = "invalid"  # a gate's value int() rejects
    UNKNOWN = "unknown"  # the caller decides a gate
    ONLINE = "online"  # --packing-sft-data / --packing-pretrain-data: the gates are not read
    MIXED = "mixed"  # a launch's paths disagree (a summary, never one path's verdict)


BMR = "OFFLINE_PACKING_BMR"
PACKED = "OFFLINE_PACKED_DATA"
VQA = "OFFLINE_PACKING_VQA"
GATES = (BMR, PACKED, VQA)


@record(frozen=True)
class Profile:
    """Which variables a code base reads, and in which role."""

    name: str
    encoding: tuple[str, ...]  # any of these on => sub-samples encoded with real cu_lengths
    batch: str
    dead: tuple[str, ...]
    title_en: str
    title_zh: str
    reads: tuple = ()  # project.Read entries when the profile was derived from the code (auto)
    # why `auto` fell back to this profile (no training code found), English and Chinese;
    # empty when the profile was chosen or derived
    assumed_en: str = ""
    assumed_zh: str = ""
    # the relations the profile's code asserts between variables and options
    # (core/code/relations.py); the packing entries are owned by PG001 and PG003
    relations: tuple = ()

    def parse_of(self, name: str) -> str:
        """How the code parses a gate: "int" (int(v) == 1, the default) or "str" (v == "1")."""
        kinds = {r.parse for r in self.reads if r.name == name}
        return "str" if kinds == {"str"} else "int"

    def judge(self, name: str, value: str) -> GateState:
        """ON, OFF or INVALID for a value of a gate, the way this code base reads it."""
        if self.parse_of(name) == "str":
            return _ON if value == "1" else _OFF
        return int_gate(value)


PACKING_SFT = "--packing-sft-data"
PACKING_PRETRAIN = "--packing-pretrain-data"
MBS_FLAG = "--micro-batch-size"
CONNECTIONS = "CUDA_DEVICE_MAX_CONNECTIONS"


def _var(name, value: str, *, equal: bool = True, compare=Compare.STR, default=None,
         absent=Absent.CALLER, also: tuple = ()) -> Clause:
    return Clause(Subject.VAR, (*also, name), value, equal, compare, default, absent)


def _option(name: str, value: str | None = None, *, given: bool = True) -> Clause:
    return Clause(Subject.OPTION, (name,), value, given)


def packing_relations(encoding: tuple, batch: str) -> tuple:
    """The packing gates and the micro-batch size as relations: what PG001 and PG003 check
    (they report them; PG014 leaves them to their owners)."""
    gate = dict(compare=Compare.INT, default="0", absent=Absent.UNSET)
    return (
        Relation(RelationKind.BOTH, "packing-gates",
                 (_var(encoding[-1], "1", also=encoding[:-1], **gate), _var(batch, "1", **gate)),
                 reason_en="The encoding gate builds real cu_lengths and the batch gate forwards them: "
                           "one without the other leaks attention across sub-samples or corrupts them",
                 reason_zh="编码开关构造真实的 cu_lengths，batch 开关把它们传给模型：只开一个会造成跨样本注意力泄漏"
                           "或边界损坏",
                 at="aiak_training_llm/data/multimodal/task_encoder.py:194,363", owner="PG001"),
        Relation(RelationKind.REQUIRES, "packing-micro-batch",
                 (_var(batch, "1", **gate), _option(PACKING_SFT, given=False)),
                 _option(MBS_FLAG, "1"),
                 reason_en="With real cu_lengths the pretrain step asserts cu_lengths.shape[0] == 1",
                 reason_zh="cu_lengths 为真实值时，预训练步骤断言 cu_lengths.shape[0] == 1",
                 at="aiak_training_llm/train/pretrain/pretrain_llava_onevision2.py:157", owner="PG003"),
        Relation(RelationKind.REQUIRES, "pretrain-micro-batch",
                 (_option(PACKING_PRETRAIN), _option(PACKING_SFT, given=False)),
                 _option(MBS_FLAG, "1"),
                 reason_en="--packing-pretrain-data makes cu_lengths real without forcing the size to 1, "
                           "and the pretrain step asserts cu_lengths.shape[0] == 1",
                 reason_zh="--packing-pretrain-data 让 cu_lengths 成为真实值，却不会把 size 设为 1；预训练步骤断言 "
                           "cu_lengths.shape[0] == 1",
                 at="aiak_training_llm/train/pretrain/pretrain_llava_onevision2.py:157", owner="PG003"),
    )


# What Megatron (vendored as aiak_megatron/) asserts between variables and its options, compared
# the way its code compares them (FACTS.md section 9).
MEGATRON_RELATIONS = (
    Relation(RelationKind.REQUIRES, "fsdp-connections",
             (_option("--use-torch-fsdp2"),),
             _var(CONNECTIONS, "1", equal=False, default=""),
             reason_en="Torch FSDP2 overlaps communication with compute, which one CUDA connection "
                       "serialises: validate_args stops the job",
             reason_zh="torch FSDP2 让通信与计算重叠，只有一个 CUDA 连接会把它们串行化：validate_args 会终止任务",
             at="aiak_megatron/megatron/training/arguments.py:474"),
    Relation(RelationKind.REQUIRES, "overlap-connections",
             (_option("--overlap-grad-reduce"), _option("--use-torch-fsdp2", given=False)),
             _var(CONNECTIONS, "1"),
             reason_en="Outside FSDP, overlapping the gradient reduce needs kernels queued in launch order, "
                       "which only one CUDA connection guarantees: validate_args stops the job",
             reason_zh="在 FSDP 之外，梯度规约的重叠要求 kernel 按提交顺序排队，只有一个 CUDA 连接能保证："
                       "validate_args 会终止任务",
             at="aiak_megatron/megatron/training/arguments.py:733"),
    Relation(RelationKind.REQUIRES, "flash-attention-env",
             (_option("--attention-backend", "flash"),),
             _var("NVTE_FLASH_ATTN", "1", compare=Compare.INT, default="1"),
             reason_en="The language module checks that Transformer Engine's switches agree with the "
                       "backend asked for on the command line",
             reason_zh="语言模块会检查 Transformer Engine 的开关与命令行指定的注意力后端一致",
             at="aiak_megatron/megatron/core/models/common/language_module/language_module.py:43"),
    Relation(RelationKind.REQUIRES, "fused-attention-env",
             (_option("--attention-backend", "fused"),),
             _var("NVTE_FUSED_ATTN", "1", compare=Compare.INT, default="1"),
             reason_en="The language module checks that Transformer Engine's switches agree with the "
                       "backend asked for on the command line",
             reason_zh="语言模块会检查 Transformer Engine 的开关与命令行指定的注意力后端一致",
             at="aiak_megatron/megatron/core/models/common/language_module/language_module.py:43"),
    Relation(RelationKind.REQUIRES, "qk-layer-scaling-env",
             (_option("--apply-query-key-layer-scaling"),),
             _var("NVTE_APPLY_QK_LAYER_SCALING", "1", compare=Compare.INT, default="0"),
             reason_en="Transformer Engine applies the query-key layer scaling only when its own switch "
                       "says so; the option alone is refused",
             reason_zh="Transformer Engine 只在它自己的开关打开时才应用 query-key layer scaling；只传该选项会被拒绝",
             at="aiak_megatron/megatron/core/extensions/transformer_engine.py:678"),
)


PROFILES: dict[str, Profile] = {
    "ov2": Profile("ov2", (BMR,), PACKED, (VQA,),
                   "LLaVA-OneVision-2 main", "LLaVA-OneVision-2 main 分支",
                   relations=packing_relations((BMR,), PACKED) + MEGATRON_RELATIONS),
    "ov15": Profile("ov15", (VQA,), PACKED, (BMR,),
                    "LLaVA-OneVision-1.5", "LLaVA-OneVision-1.5",
                    relations=packing_relations((VQA,), PACKED)),
    "three-gate": Profile("three-gate", (VQA, BMR), PACKED, (),
                          "OV2 branch reading both encoding gates", "同时读取两个编码开关的 OV2 分支",
                          relations=packing_relations((VQA, BMR), PACKED) + MEGATRON_RELATIONS),
}


def profile(name: str | None) -> Profile:
    """The profile by name; unknown names (and `auto` without project code) mean ov2."""
    return PROFILES.get(name or "ov2", PROFILES["ov2"])


def short(name: str) -> str:
    """BMR / PACKED_DATA / VQA: the short names used in labels."""
    return name.replace("OFFLINE_PACKING_", "").replace("OFFLINE_", "")


# Python's int() decides; call it rather than imitate it.
def int_gate(value: str) -> GateState:
    """ON, OFF or INVALID for the string the trainer reads, judged by int(v) == 1."""
    try:
        return _ON if int(value) == 1 else _OFF
    except ValueError:
        return GateState.INVALID


_ON, _OFF = GateState.ON, GateState.OFF  # (an enum's member read off its class is slow: flow/values.py says why)


@record(frozen=True)
class VarDoc:
    """One row of the variables truth table."""

    name: str
    read_at: str
    check: str
    default: str
    status_en: str
    status_zh: str
    effect_en: str
    effect_zh: str


VAR_DOCS: dict[str, VarDoc] = {
    BMR: VarDoc(
        BMR,
        "aiak_training_llm/data/multimodal/task_encoder.py:194",
        'int(os.environ.get("OFFLINE_PACKING_BMR", 0)) == 1',
        "0",
        "live (data layer)",
        "生效（数据层）",
        "In a dataloader worker, for every sub-sample of a packed sample: encodes each one as a "
        "full multi-turn sample and builds the real cu_lengths. Off: the legacy captioning path, "
        "which loses the turn structure.",
        "在 dataloader worker 中对 packed 样本的每个子样本生效：把每个子样本按完整的多轮对话编码，并构造真实的 "
        "cu_lengths。关闭时走旧的 captioning 路径，多轮结构丢失。",
    ),
    PACKED: VarDoc(
        PACKED,
        "aiak_training_llm/data/multimodal/task_encoder.py:363",
        'self.is_packing_enabled or int(os.environ.get("OFFLINE_PACKED_DATA", 0)) == 1',
        "0",
        "live (batch layer)",
        "生效（batch 层）",
        "In batch(), once per micro-batch: forwards the real per-sample cu_lengths to the model. "
        "Off: the model gets the dummy [[0]] and attends across sub-samples. Skipped when "
        "--packing-pretrain-data or --packing-sft-data is passed.",
        "在 batch() 中每个 micro-batch 读取一次：把真实的 cu_lengths 传给模型。关闭时模型拿到占位的 [[0]]，"
        "注意力会跨子样本。传了 --packing-pretrain-data 或 --packing-sft-data 时不再读取。",
    ),
    VQA: VarDoc(
        VQA,
        "nowhere on LLaVA-OneVision-2 main (the LLaVA-OneVision-1.5 encoding gate)",
        "-",
        "-",
        "dead under ov2",
        "在 ov2 下无效（死变量）",
        "Nothing in the OV2 training code reads it: setting it changes nothing. It was the "
        "encoding gate of the older 1.5 code.",
        "OV2 训练代码中没有任何地方读取它，设置与否毫无作用。它是旧版 1.5 代码的编码开关。",
    ),
}

# Other variables read by aiak_training_llm/, for hover and value checks.
OTHER_VARS: dict[str, tuple[str, str, str]] = {
    "TE_EXTRA_STATE_MISSING_CHECK": (
        "int(v) == 1, at import",
        "A value int() rejects crashes the trainer at start-up.",
        "int() 无法解析的值会让训练在启动时崩溃。",
    ),
    "SCATTER_BEFORE_PATCH_EMBED": (
        'v == "1" (string compare)',
        "Only the exact string 1 turns it on; true or yes are silently off.",
        "只有字符串 1 才算打开；true、yes 会被静默当作关闭。",
    ),
    "PATCH_EMBED_TYPE": (
        "v.upper() compared with TP_LINEAR and the other types",
        "Case-insensitive choice of the patch-embedding implementation.",
        "不区分大小写地选择 patch embedding 的实现。",
    ),
    "MEGATRON_LOGGING_LEVEL": (
        "int(v) when set",
        "Logging level; a non-integer value raises.",
        "日志级别；非整数会报错。",
    ),
}

# (bmr_on, packed_on) -> verdict; the four rows of the combination table.
COMBOS = {
    (False, False): Verdict.OFF,
    (True, False): Verdict.LEAK,
    (False, True): Verdict.CORRUPT,
    (True, True): Verdict.OK,
}

COMBO_TEXT = {
    Verdict.OFF: ("no packing; right for unpacked data", "不做 packing；适用于未打包的数据"),
    Verdict.LEAK: ("silent bug: real cu_lengths are built, then replaced by the dummy [[0]]; every "
             "sub-sample attends to the ones before it (cross-sample leakage), loss looks fine",
             "静默 bug：先构造了真实的 cu_lengths，随后被占位的 [[0]] 替换；每个子样本都能看到前面的子样本"
             "（跨样本注意力泄漏），loss 看起来正常"),
    Verdict.CORRUPT: ("broken: sub-samples take the legacy captioning path, so the forwarded cu_lengths "
                "do not match the tokens (on current main every packed sample raises and is skipped)",
                "已损坏：子样本走旧的 captioning 路径，传给模型的 cu_lengths 与 token 对不上（当前 main 上每个 "
                "packed 样本都会报错并被跳过）"),
    Verdict.OK: ("correct: padding-free, causal attention within each sub-sample",
           "正确：padding-free，每个子样本内部因果注意力"),
}

VERDICT_LABEL = {
    Verdict.OK: ("✓ padding-free", "✓ 无填充（padding-free）"),
    Verdict.OFF: ("no packing", "未启用 packing"),
    Verdict.LEAK: ("✗ leakage", "✗ 跨样本泄漏"),
    Verdict.CORRUPT: ("✗ corrupted", "✗ 边界损坏"),
    Verdict.INVALID: ("✗ invalid value", "✗ 取值非法"),
    Verdict.MIXED: ("⚠ depends on path", "⚠ 取决于执行路径"),
    Verdict.UNKNOWN: ("? set by the caller", "? 由调用方决定"),
}

# Commands that start the trainer (FACTS §6).
LAUNCHERS = frozenset({"torchrun", "deepspeed", "srun", "mpirun"})
PYTHONS = ("python", "python3")
# launchers named by two words: `accelerate launch ...`
LAUNCHER_SUBCOMMANDS = {"accelerate": "launch"}
LAUNCH_COMMANDS = LAUNCHERS | frozenset(LAUNCHER_SUBCOMMANDS)  # what a launch's first word can be
# `$TORCHRUN ...`, `${DISTRIBUTED_LAUNCHER} ...`: a variable holding the launcher, by its name
LAUNCHER_VARIABLE_PARTS = ("TORCHRUN", "LAUNCHER", "DISTRIBUTED")
# `python -m MODULE`: modules that start training; `python SCRIPT.py`: the trainer's package
TRAINING_MODULES = ("torch.distributed.run", "torch.distributed.launch", "aiak_training_llm")
TRAINING_PACKAGE = "aiak_training_llm"
TRAINING_MARK = "train"  # in a module's last part or a script's file name: a training entry point
# The options of a launcher that take no value (every other option takes the next word unless
# written `--opt=value`): how the contract index finds the script or module a launch runs.
LAUNCHER_SWITCHES = {
    "torchrun": frozenset({"--standalone", "--no-python", "--no_python", "--run-path", "--run_path",
                           "--module", "-m"}),
    "deepspeed": frozenset({"--no_python", "--no_local_rank", "--module", "--force_multi", "--elastic_training",
                            "--bind_cores_to_rank", "--no_ssh_check", "--no_ssh"}),
}
# `python -m MODULE` of a launcher: the words after MODULE follow that launcher's syntax
LAUNCHER_MODULES = {"torch.distributed.run": "torchrun", "torch.distributed.launch": "torchrun"}
# Python's own options that take the next word (the others are single switches: -u, -O, -B...)
PYTHON_VALUE_FLAGS = frozenset({"-W", "-X", "--check-hash-based-pycs"})


def is_python(command: str) -> bool:
    """Whether a command's base name is a Python interpreter (python, python3, python3.10...)."""
    return command.startswith("python")


def names_python(lead: str) -> bool:
    """Whether a word's literal start names a Python interpreter (`python3`, `/usr/bin/python`)."""
    return "python" in lead and (lead.startswith("python") or lead.endswith("/python"))


def python_launch(command: str, words, first: int) -> str:
    """The label of `python ... -m MODULE` / `python ... SCRIPT.py` when it starts training,
    else ''. words: the command's words as text, read one by one from index first (the one
    after the interpreter) only as far as needed: the walk evaluates them lazily."""
    for j in range(first, len(words)):
        t = words[j]
        if t == "-m" and j + 1 < len(words):
            mod = words[j + 1]
            if mod.startswith(TRAINING_MODULES) or TRAINING_MARK in mod.split(".")[-1]:
                return command + " -m " + mod
            return ""
        if t.endswith(".py"):
            stem = os.path.basename(t)
            if TRAINING_MARK in stem or TRAINING_PACKAGE in t:
                return command + " " + stem
            return ""
        if not t.startswith("-"):
            return ""
    return ""


# Commands that run another command (`numactl --cpunodebind=0 torchrun ...`): the launch is the
# command they wrap. Per wrapper: the options that take the next word as their value, and the
# operands that come before the command (taskset's CPU mask or list, timeout's duration).
WRAPPER_SYNTAX = {
    "exec": (frozenset({"-a"}), 0),
    "nohup": (frozenset(), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "command": (frozenset(), 0),
    "builtin": (frozenset(), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "numactl": (frozenset({"-i", "--interleave", "-m", "--membind", "-N", "--cpunodebind", "-C",
                           "--physcpubind", "-p", "--preferred", "-P", "--preferred-many", "-w",
                           "--weighted-interleave"}), 0),
    "taskset": (frozenset(), 1),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "setsid": (frozenset(), 0),
    "chrt": (frozenset({"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"}), 1),
    # GNU xargs: the options with a separate value (`-I{}`, `-n1`, `--max-args=1` are one word;
    # `-i`/`-e`/`-l` take theirs only glued); its input becomes more words (environ.read_xargs)
    "xargs": (frozenset({"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args",
                         "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"}), 0),
}
WRAPPERS = frozenset(WRAPPER_SYNTAX)
# The same syntax for the wrappers that change the environment (core/flow/environ.py reads
# them): env's option that takes a value (`-u NAME`; `-S STRING` is the command), and docker
# run's options that take the next word as their value (`-e`/`--env` are read apart).
# env(1): the options that take the next word: `-u NAME` removes NAME, `-C DIR` runs the command
# in DIR (GNU coreutils 8.28 and later); `--chdir=DIR` and a glued `-CDIR` are one word
ENV_SYNTAX = (frozenset({"-u", "--unset", "-C", "--chdir"}), 0)
DOCKER_RUN_SYNTAX = (frozenset({
    "-v", "--volume", "--name", "-w", "--workdir", "--network", "--net", "--gpus", "--shm-size",
    "--ipc", "-u", "--user", "--entrypoint", "-p", "--publish", "--mount", "--device",
    "--runtime", "--cpus", "-m", "--memory", "--ulimit", "--label", "-l", "--hostname", "-h",
    "--add-host", "--cap-add", "--security-opt", "--pid", "--platform", "--pull", "--restart",
    "--log-driver", "--log-opt", "--tmpfs", "--group-add", "--dns",
}), 0)
# sudo(8): the options that take the next word (`-u USER`...; `--user=USER` is one word), and
# sudoers(5)'s default `env_reset`: the command gets a fresh environment. Of this shell's
# variables only TERM and PATH pass through it (PATH unless `secure_path` replaces it); sudo
# sets HOME, MAIL, SHELL, LOGNAME, USER and SUDO_* itself to the target user's, and a site's
# `env_keep` may keep more: that list is the machine's configuration, which packgate cannot see.
SUDO_SYNTAX = (frozenset({"-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h",
                          "--host", "-p", "--prompt", "-r", "--role", "-t", "--type", "-U", "--other-user",
                          "-T", "--command-timeout", "-R", "--chroot"}), 0)
SUDO_PRESERVE = frozenset({"-E", "--preserve-env"})  # keep the whole environment
SUDO_RESET_KEEPS = ("TERM", "PATH")
# srun(1): the options that take the next word when not written `--opt=value`; `--export`
# decides what the tasks see: ALL (Slurm's default when it is absent), NONE, or a list of NAME
# and NAME=value (only those plus SLURM_*), with ALL in the list: everything and the values.
SRUN_SYNTAX = (frozenset({
    "-A", "--account", "-b", "--begin", "-c", "--cpus-per-task", "-d", "--dependency", "-D", "--chdir",
    "-e", "--error", "-i", "--input", "-J", "--job-name", "-L", "--licenses", "-m", "--distribution",
    "-n", "--ntasks", "-N", "--nodes", "-o", "--output", "-p", "--partition", "-q", "--qos", "-t", "--time",
    "-w", "--nodelist", "-x", "--exclude", "-C", "--constraint", "-G", "--gpus", "-T", "--threads", "-W",
    "--wait", "--mem", "--mem-per-cpu", "--mem-per-gpu", "--gres", "--gpus-per-node", "--gpus-per-task",
    "--ntasks-per-node", "--cpu-bind", "--mpi", "--export", "--reservation", "--comment", "--nodefile",
    "-r", "--relative", "-K", "--kill-on-bad-exit", "--signal", "--container", "--network",
}), 0)
SRUN_EXPORT = "--export"
# Open MPI's mpirun(1): `-x NAME` / `-x NAME=value` sends a variable to the ranks on other hosts,
# which get nothing else of this shell's; ranks on this host inherit mpirun's whole environment.
# The options naming hosts (a list, or a file whose hosts packgate does not read), and those
# whose next word is a value.
MPIRUN_SYNTAX = (frozenset({
    "-x", "-np", "-n", "-c", "--np", "-H", "--host", "-host", "--hostfile", "-hostfile", "--machinefile",
    "-machinefile", "--default-hostfile", "-npernode", "--npernode", "-N", "--map-by", "--rank-by",
    "--bind-to", "--mca", "-mca", "--prefix", "-wdir", "--wdir", "--output-filename", "--report-bindings",
}), 0)
MPIRUN_EXPORT = "-x"
MPIRUN_HOSTS = frozenset({"-H", "--host", "-host"})
MPIRUN_HOSTFILES = frozenset({"--hostfile", "-hostfile", "--machinefile", "-machinefile", "--default-hostfile"})
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1"})
# DeepSpeed's runner (deepspeed/launcher/runner.py, `EXPORT_ENVS` plus `NEBULA_EXPORT_ENVS` of
# deepspeed/nebula/constants.py): started on several nodes (over pdsh/ssh or MPI) the ranks get
# only the exported variables whose names start with one of these, and the NAME=value lines of a
# `.deepspeed_env` file (the working folder's, else the home folder's).
DEEPSPEED_EXPORT_PREFIXES = (
    "MLFLOW", "NCCL", "PYTHON", "MV2", "UCX",
    "DLTS_JOB_ID", "DLTS_NUM_WORKER", "NEBULA_PERSISTENT_STORAGE_PATH", "NEBULA_PERSISTENT_TIME_INTERVAL",
    "AML_RUN_ID", "AZUREML_RUN_TOKEN", "AZUREML_WORKSPACE_SCOPE", "AZUREML_EXPERIMENT_SCOPE",
    "AZUREML_RUN_HISTORY_SERVICE_ENDPOINT", "AZUREML_RUN_ID", "NEBULA_MEMORY_BUFFER_SIZE",
    "AZUREML_PARAMETER_ITPJOB_NAME", "FC_TASKROLE_NAME", "FC_TASK_INDEX", "MASTER_HOST", "LOCAL_HOST",
    "AZUREML_BLOB_ACCOUNT_NAME", "AZUREML_BLOB_ACCOUNT_KEY",
)
DEEPSPEED_ENV_FILE = ".deepspeed_env"
# deepspeed's options that decide the nodes: a hostfile (its hosts unread here), how many of its
# nodes, which hosts (`host1@host2:0,1`), and a switch that forces the multi-node runner
DEEPSPEED_HOSTFILE = frozenset({"-H", "--hostfile"})
DEEPSPEED_NUM_NODES = "--num_nodes"
DEEPSPEED_HOSTS = frozenset({"-i", "--include"})
DEEPSPEED_EXCLUDE = frozenset({"-e", "--exclude"})
DEEPSPEED_FORCE_MULTI = "--force_multi"
