#!/bin/bash
# Stage-1 alignment. 每卡 micro batch 设成了 4（packing 下必须为 1）。
export OFFLINE_PACKING_BMR='1'
export OFFLINE_PACKED_DATA='1'

MBS="${4:-4}"

TRAINING_ARGS=(
    --micro-batch-size "${MBS}"   # 想提高吞吐
    --global-batch-size 256
)

torchrun --nproc_per_node 8 aiak_training_llm/train.py "${TRAINING_ARGS[@]}"
