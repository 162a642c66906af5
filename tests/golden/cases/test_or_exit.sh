#!/bin/bash
# [[ ... ]] || { ...; exit 1; }: the failing path never reaches the launch.
DATA_PATH=${1:-/mnt/data/packed}
[[ -d "$DATA_PATH" ]] || { echo "missing $DATA_PATH" >&2; exit 1; }

export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --data-path "$DATA_PATH" \
    --micro-batch-size 1
