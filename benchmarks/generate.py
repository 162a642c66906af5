"""Realistic LLaVA-OneVision training launchers of a requested size, deterministic by seed.

The idioms are the ones FACTS.md §7 counts over real launchers: `#! /bin/bash` not always on
line 1, `set -euo pipefail`, positional defaults (`MBS="${4:-1}"`), `${X:-"quoted"}`, nested
`${A:-${B}}` and `$(( ))` defaults, `export A B C`, `export X="${X:-default}"`, the same gate
exported twice in a row, commented-out gate exports and gates named in prose, multi-line arrays
with full-line, blank and trailing comments (and a commented `# --micro-batch-size`), functions,
`case`, here-strings, `[[ ... ]] || { ...; exit 1; }`, `${IMG_ARGS:+${IMG_ARGS[@]}}`, launches
continued over many lines with a `PYTHONPATH="..." \\` prefix, `| tee "$logfile"`, Chinese
comments and strings, and sometimes no trailing newline.

A script is a header (shebang, defaults, helpers, the packing gates) followed by stage blocks
(arrays and a launch each) until the requested line count; the last stage's argument array is
padded so the count is exact. Every output passes `bash -n`.

    python benchmarks/generate.py --lines 2000 --seed 7 -o one.sh
    python benchmarks/generate.py --lines 220 --count 200 --out-dir launchers/
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

MIN_LINES = 150

_ZH = [
    "第二阶段：指令微调，使用离线 packed 数据",
    "注意：BMR 和 PACKED_DATA 必须同时打开，否则子样本之间会互相 attend",
    "这里的学习率是按 512 的 global batch 调过的",
    "数据路径按集群挂载点修改",
    "多机训练时请确认 MASTER_ADDR 可达",
    "日志同时写到文件，方便排查 NCCL 超时",
    "冻结视觉塔，只训练 projector 和语言模型",
    "序列长度改成 16k 之后显存会吃紧，micro batch 只能是 1",
    "保存频率不要太高，checkpoint 很大",
    "评测集单独跑，不在训练脚本里",
]
_EN = [
    "Stage-2 instruction tuning on offline-packed samples",
    "Keep the learning rate in sync with the global batch size",
    "Mount points differ per cluster: adjust DATA_ROOT",
    "Log to a file as well; NCCL timeouts are easier to trace that way",
    "The vision tower stays frozen in this stage",
    "Checkpoints are large: save sparingly",
    "See the wiki for the packing layout (OFFLINE_PACKING_BMR=1 and OFFLINE_PACKED_DATA=1)",
    "TODO: move the tokenizer path into the env file",
]
_FLAGS = [
    ("--tensor-model-parallel-size", ["1", "2", "4", '"${TP}"']),
    ("--pipeline-model-parallel-size", ["1", "2", '"${PP}"']),
    ("--seq-length", ["4096", "8192", "16384", '"${SEQ_LEN}"']),
    ("--max-position-embeddings", ["32768", "16384"]),
    ("--global-batch-size", ['"${GBS}"', "512", "256"]),
    ("--lr", ["1e-5", "2e-5", '"${LR}"']),
    ("--min-lr", ["1e-6", "0"]),
    ("--lr-decay-style", ["cosine", "linear"]),
    ("--lr-warmup-fraction", ["0.03", "0.01"]),
    ("--weight-decay", ["0.0", "0.1"]),
    ("--clip-grad", ["1.0"]),
    ("--adam-beta2", ["0.95", "0.999"]),
    ("--train-iters", ['"${TRAIN_ITERS}"', "20000", "$(( EPOCHS * 1000 ))"]),
    ("--save-interval", ["1000", "500"]),
    ("--eval-interval", ["1000000"]),
    ("--num-workers", ["8", "16"]),
    ("--tokenizer-type", ["HFTokenizer"]),
    ("--hf-tokenizer-path", ['"${TOKENIZER_PATH}"']),
    ("--data-path", ['"${DATA_PATH}"']),
    ("--save", ['"${CHECKPOINT_PATH}"']),
    ("--load", ['"${CHECKPOINT_PATH}"', '"${LOAD_PATH:-${CHECKPOINT_PATH}}"']),
    ("--tensorboard-dir", ['"${TENSORBOARD_PATH}"']),
    ("--log-interval", ["1", "10"]),
    ("--attention-dropout", ["0.0"]),
    ("--hidden-dropout", ["0.0"]),
]
_SWITCHES = ["--bf16", "--use-flash-attn", "--sequence-parallel", "--use-distributed-optimizer",
             "--no-load-optim", "--no-load-rng", "--freeze-vit", "--overlap-grad-reduce",
             "--untie-embeddings-and-output-weights", "--swiglu", "--disable-bias-linear"]


class _Writer:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def comment(self, indent: str = "") -> None:
        pool = _ZH if self.rng.random() < 0.6 else _EN
        self.add(f"{indent}# {self.rng.choice(pool)}")


def _header(w: _Writer, gate_style: int) -> None:
    rng = w.rng
    if rng.random() < 0.3:  # the shebang is not always on line 1
        w.add("", "#! /bin/bash")
    else:
        w.add(rng.choice(["#!/bin/bash", "#! /bin/bash", "#!/usr/bin/env bash"]))
    w.comment()
    w.comment()
    w.add("set -euo pipefail", "")
    w.add("# ---- 参数 / arguments: stage, nodes, rank, micro batch, global batch ----",
          'STAGE="${1:-stage1}"',
          'NNODES="${2:-1}"',
          'NODE_RANK="${3:-0}"',
          'MBS="${4:-1}"',
          "GBS=${5:-512}",
          'GPUS_PER_NODE="${GPUS_PER_NODE:-8}"',
          'MASTER_ADDR=${MASTER_ADDR:-"127.0.0.1"}',
          "MASTER_PORT=${MASTER_PORT:-$(( 20000 + RANDOM % 1000 ))}",
          'DATA_ROOT="${DATA_ROOT:-${HOME}/data}"',
          'TP="${TP:-1}"',
          'PP="${PP:-1}"',
          'SEQ_LEN="${SEQ_LEN:-16384}"',
          'LR="${LR:-1e-5}"',
          "EPOCHS=${EPOCHS:-1}",
          'TRAIN_ITERS="${TRAIN_ITERS:-$(( EPOCHS * 1000 ))}"',
          "")
    w.add('export AIAK_TRAINING_PATH="${AIAK_TRAINING_PATH:-/workspace/LLaVA-OneVision-2}"',
          'export TOKENIZER_PATH="${TOKENIZER_PATH:-/workspace/models/Qwen2.5-7B-Instruct}"',
          "export CUDA_DEVICE_MAX_CONNECTIONS=1",
          "NCCL_IB_DISABLE=0",
          "NCCL_DEBUG=WARN",
          "TORCH_NCCL_AVOID_RECORD_STREAMS=1",
          "export NCCL_IB_DISABLE NCCL_DEBUG TORCH_NCCL_AVOID_RECORD_STREAMS",
          'export OFFLINE_PACKING_DIR="${DATA_ROOT}/packed"  # unrelated to the gates',
          "")
    w.add("# ---- packing gates ----")
    if gate_style == 0:  # correct, single quotes, PACKED_DATA exported twice in a row
        w.add("# export OFFLINE_PACKING_BMR=1",
              "export OFFLINE_PACKED_DATA='1'",
              "export OFFLINE_PACKED_DATA='1'",
              "export OFFLINE_PACKING_BMR='1'")
    elif gate_style == 1:  # the silent bug: BMR only
        w.add("# 需要同时设置 OFFLINE_PACKING_BMR=1 和 OFFLINE_PACKED_DATA=1",
              "export OFFLINE_PACKING_BMR=1",
              "# export OFFLINE_PACKED_DATA=1")
    elif gate_style == 2:  # both via ${X:-default}
        w.add('export OFFLINE_PACKING_BMR="${OFFLINE_PACKING_BMR:-1}"',
              'export OFFLINE_PACKED_DATA="${OFFLINE_PACKED_DATA:-1}"')
    else:  # assignment first, export later, with a dead gate left over from OV-1.5
        w.add("OFFLINE_PACKING_BMR=1",
              "OFFLINE_PACKED_DATA=1",
              "export OFFLINE_PACKING_VQA=1  # 旧版本的开关",
              "export OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA")
    w.add("")
    w.add("log() {",
          '    echo "[$(date +%F_%T)] $*"',
          "}",
          "",
          "need_dir() {",
          '    [[ -d "$1" ]] || { echo "目录不存在: $1" >&2; exit 1; }',
          "}",
          "",
          'read -r MASTER_HOST MASTER_PORT_STR <<< "${MASTER_ADDR} ${MASTER_PORT}"',
          'log "master ${MASTER_HOST}:${MASTER_PORT_STR}, nodes ${NNODES}, rank ${NODE_RANK}"',
          "",
          'case "${STAGE}" in',
          "    stage1)",
          '        DATA_PATH="${DATA_ROOT}/stage1/packed_wds"',
          "        ;;",
          "    stage1_5|stage1.5)",
          '        DATA_PATH="${DATA_ROOT}/stage1_5/packed_wds"',
          "        ;;",
          "    stage2)",
          '        DATA_PATH="${DATA_ROOT}/stage2/packed_wds"  # 指令数据',
          "        ;;",
          "    *)",
          '        echo "unknown stage: ${STAGE}" >&2',
          "        exit 1",
          "        ;;",
          "esac",
          "",
          'CHECKPOINT_PATH="${CHECKPOINT_PATH:-/workspace/ckpt/${STAGE}}"',
          'TENSORBOARD_PATH="${CHECKPOINT_PATH}/tensorboard"',
          'LOG_DIR="${LOG_DIR:-${CHECKPOINT_PATH}/logs}"',
          'mkdir -p "${LOG_DIR}" "${TENSORBOARD_PATH}"',
          "")


def _arg_lines(rng: random.Random, n: int, indent: str = "    ") -> list[str]:
    out = []
    while len(out) < n:
        r = rng.random()
        if r < 0.08:
            out.append("")
        elif r < 0.2:
            pool = _ZH if rng.random() < 0.5 else _EN
            out.append(f"{indent}# {rng.choice(pool)}")
        elif r < 0.35:
            out.append(f"{indent}{rng.choice(_SWITCHES)}")
        else:
            flag, values = rng.choice(_FLAGS)
            line = f"{indent}{flag} {rng.choice(values)}"
            if rng.random() < 0.15:
                line += f"  # {rng.choice(_ZH)}"
            out.append(line)
    return out


def _stage(w: _Writer, k: int, pad: int = 0, blocks: bool = False) -> None:
    """One stage: data checks, model/training/image arrays, a launch (sometimes in a function);
    with blocks, also an `if ...; then ... fi` and a `for ...; do ... done`."""
    rng = w.rng
    w.add(f"# ======== stage block {k} ========")
    w.comment()
    w.add(f'DATA_PATH_{k}="${{DATA_PATH}}/part{k:04d}"',
          f'need_dir "${{DATA_PATH_{k}}}"',
          f'[[ -n "${{DATA_PATH_{k}}}" ]] || {{ log "empty data path"; exit 1; }}',
          "")
    if blocks:  # no generator draw: the rest of the stage stays what it is without them
        w.add('if [ -n "${WANDB_API_KEY:-}" ]; then',
              f'    log "stage {k} reports to wandb project ${{WANDB_PROJECT:-llava-ov2}}"',
              "fi",
              'for sub in "${LOG_DIR}" "${TENSORBOARD_PATH}"; do',
              f'    mkdir -p "${{sub}}/stage_{k}"',
              "done",
              "")
    if k % 4 == 3:  # another gate touch: re-export, sometimes twice in a row
        w.add("export OFFLINE_PACKED_DATA=1", "export OFFLINE_PACKED_DATA=1", "")
    if k % 5 == 2:
        w.add('case "${NNODES}" in',
              "    1) ACCUM=8 ;;",
              "    2|4) ACCUM=4 ;;",
              "    *) ACCUM=1 ;;",
              "esac",
              "")
    w.add("MODEL_ARGS=(",
          "    --num-layers 28",
          "    --hidden-size 3584",
          "    --num-attention-heads 28  # Qwen2.5-7B",
          "    --group-query-attention",
          "    --num-query-groups 4",
          "    # 视觉塔",
          "    --vision-model-type rice_vit",
          ")",
          "")
    w.add("TRAINING_ARGS=(")
    w.add("    --micro-batch-size \"${MBS}\"  # packing 时必须是 1")
    w.add("    # --micro-batch-size 4")
    w.add(*_arg_lines(rng, rng.randint(14, 30)))
    w.add(f'    --data-path "${{DATA_PATH_{k}}}"')
    if pad:  # drawn from its own generator so the rest of the stage stays the same
        w.add(*_arg_lines(random.Random(k * 7919 + pad), pad))
    w.add(")", "")
    if rng.random() < 0.5:
        w.add("IMG_ARGS=(",
              "    --image-size 448",
              "    --patch-size 14  # 14x14",
              ")")
    else:
        w.add("IMG_ARGS=()")
    w.add("")
    as_function = k % 3 == 1
    ind = "    " if as_function else ""
    if as_function:
        w.add(f"run_stage_{k}() {{", f'    local logfile="${{LOG_DIR}}/stage_{k}_$(date +%Y%m%d_%H%M%S).log"')
    else:
        w.add(f'logfile="${{LOG_DIR}}/stage_{k}_$(date +%Y%m%d_%H%M%S).log"')
    w.add(f'{ind}log "启动第 {k} 段训练, 日志: ${{logfile}}"',
          f'{ind}PYTHONPATH="${{AIAK_TRAINING_PATH}}:${{AIAK_TRAINING_PATH}}/Megatron-LM:${{PYTHONPATH:-}}" \\',
          f"{ind}torchrun \\",
          f'{ind}    --nproc_per_node "${{GPUS_PER_NODE}}" \\',
          f'{ind}    --nnodes "${{NNODES}}" \\',
          f'{ind}    --node_rank "${{NODE_RANK}}" \\',
          f'{ind}    --master_addr "${{MASTER_ADDR}}" \\',
          f'{ind}    --master_port "${{MASTER_PORT}}" \\',
          f'{ind}    "${{AIAK_TRAINING_PATH}}/aiak_training_llm/train.py" \\',
          f'{ind}    "${{MODEL_ARGS[@]}}" \\',
          f'{ind}    "${{TRAINING_ARGS[@]}}" \\',
          f"{ind}    ${{IMG_ARGS:+${{IMG_ARGS[@]}}}} \\",
          f'{ind}    2>&1 | tee "${{logfile}}"')
    if as_function:
        w.add("}", "", f'run_stage_{k} "$@"')
    w.add("")


def generate(lines: int, seed: int = 0, blocks: bool = False) -> str:
    """A launcher of exactly `lines` lines (the last one may lack its newline); blocks: every
    stage also holds an if/then/fi and a for/do/done (what syntax-breaking keystrokes need)."""
    if lines < MIN_LINES:
        raise ValueError(f"at least {MIN_LINES} lines (got {lines})")
    rng = random.Random(seed)
    gate_style = rng.randrange(4)
    head = _Writer(rng)
    _header(head, gate_style)
    out = list(head.lines)
    trailer = ['log "done: ${STAGE}"']
    stages: list[tuple[object, list[str]]] = []  # (generator state before the stage, its lines)
    used = len(out) + len(trailer)
    while True:
        state = rng.getstate()
        w = _Writer(rng)
        _stage(w, len(stages), blocks=blocks)
        if used + len(w.lines) > lines:
            rng.setstate(state)
            break
        stages.append((state, w.lines))
        used += len(w.lines)
    if not stages:
        raise ValueError(f"{lines} lines are too few for seed {seed}")
    # redo the last stage from the same generator state, its training array padded to the exact count
    deficit = lines - used
    after = rng.getstate()
    rng.setstate(stages[-1][0])
    w = _Writer(rng)
    _stage(w, len(stages) - 1, pad=deficit, blocks=blocks)
    rng.setstate(after)
    stages[-1] = (stages[-1][0], w.lines)
    for _, st in stages:
        out.extend(st)
    out.extend(trailer)
    text = "\n".join(out)
    if rng.random() >= 0.2:  # one launcher in five has no trailing newline
        text += "\n"
    return text


def line_count(text: str) -> int:
    """Lines as an editor counts them (a last line without newline counts)."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=1, help="write COUNT launchers (seeds seed..seed+COUNT-1)")
    parser.add_argument("-o", "--output", help="file for a single launcher (default: stdout)")
    parser.add_argument("--out-dir", help="folder for --count launchers (launcher_NNNN.sh)")
    parser.add_argument("--blocks", action="store_true", help="an if/then/fi and a for/do/done in every stage")
    args = parser.parse_args(argv)
    if args.count > 1 or args.out_dir:
        if not args.out_dir:
            parser.error("--count needs --out-dir")
        write_many(Path(args.out_dir), args.count, args.lines, args.seed)
        return 0
    text = generate(args.lines, args.seed, blocks=args.blocks)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def write_many(folder: Path, count: int, lines: int, seed: int = 0) -> list[Path]:
    """COUNT launchers of about `lines` lines (+-10%), seeds seed..seed+count-1."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        rng = random.Random(seed + i)
        n = max(MIN_LINES, int(lines * rng.uniform(0.9, 1.1)))
        p = folder / f"launcher_{i:04d}.sh"
        p.write_text(generate(n, seed + i), encoding="utf-8")
        paths.append(p)
    return paths


def write_monorepo(folder: Path, teams: int, experiments: int, lines: int, seed: int = 0) -> list[Path]:
    """A monorepo of teams x experiments launchers of about `lines` lines (+-10%), each in its own
    folder (`team_07/exp_042/train.sh`), as the workspace benchmark opens it (~0.2 ms a launcher)."""
    paths = []
    for t in range(teams):
        for e in range(experiments):
            n = seed + t * experiments + e
            rng = random.Random(n)
            p = folder / f"team_{t:02d}" / f"exp_{e:03d}" / "train.sh"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(generate(max(MIN_LINES, int(lines * rng.uniform(0.9, 1.1))), n), encoding="utf-8")
            paths.append(p)
    return paths


if __name__ == "__main__":
    sys.exit(main())
