#!/bin/bash
# ${X:-d}: the caller's value, else d. Here the batch gate defaults to off.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA="${OFFLINE_PACKED_DATA:-0}"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
