#!/bin/bash
# 只开了 batch 层的开关：cu_lengths 与子样本编码方式对不上。
set -e
export OFFLINE_PACKED_DATA='1'
TORCHRUN=${TORCHRUN:-torchrun}

"$TORCHRUN" --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1 \
    --global-batch-size 128
