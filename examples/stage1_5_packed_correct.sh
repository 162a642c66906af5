#!/bin/bash
# Stage-1.5 continued pretraining, offline-packed data: the reference recipe.
# 阶段 1.5：离线打包数据的参考配置，两个 packing 开关同时打开。
set -euo pipefail

AIAK_TRAINING_PATH="${AIAK_TRAINING_PATH:-/workspace/LLaVA-OneVision-2}"
DATA_PATH="${1:-/data/packed/stage1_5}"
TOKENIZER_PATH="${2:-/models/Qwen3-8B}"
CHECKPOINT_PATH="${3:-/ckpt/stage1_5}"
MBS="${4:-1}"
GBS="${5:-256}"

export CUDA_DEVICE_MAX_CONNECTIONS=1
export OFFLINE_PACKING_BMR='1'   # data layer: real cu_lengths
export OFFLINE_PACKED_DATA='1'   # batch layer: forward them to the model

GPUS_PER_NODE=8
DISTRIBUTED_ARGS=(
    --nproc_per_node "$GPUS_PER_NODE"
    --nnodes "${WORLD_SIZE:-1}"
    --node_rank "${RANK:-0}"
    --master_addr "${MASTER_ADDR:-127.0.0.1}"
    --master_port "${MASTER_PORT:-29500}"
)

TRAINING_ARGS=(
    --training-phase sft
    --seq-length 32768
    # --micro-batch-size 4   (old setting, before packing)
    --micro-batch-size "${MBS}"
    --global-batch-size "${GBS}"
    --lr 1.0e-5
    --bf16
)

DATA_ARGS=(
    --data-path "$DATA_PATH"
    --tokenizer-type HFTokenizer
    --hf-tokenizer-path "$TOKENIZER_PATH"
)

PYTHONPATH="$AIAK_TRAINING_PATH:${PYTHONPATH:-}" \
    torchrun "${DISTRIBUTED_ARGS[@]}" \
    "$AIAK_TRAINING_PATH/aiak_training_llm/train.py" \
    "${TRAINING_ARGS[@]}" \
    "${DATA_ARGS[@]}" \
    --save "$CHECKPOINT_PATH" 2>&1 | tee "$CHECKPOINT_PATH/train.log"
