#!/bin/bash
# OFFLINE_PACKING_DIR is just a path, not a gate.
export OFFLINE_PACKING_DIR=/mnt/data/packed
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --data-path "$OFFLINE_PACKING_DIR" \
    --micro-batch-size 1
