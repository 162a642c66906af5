#!/bin/bash
# ARGS=--seq-length on an array sets only its element 0: the rest, --micro-batch-size 2, still reaches the launch.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
ARGS=(--lr --micro-batch-size 2)
ARGS=--seq-length
torchrun --nproc_per_node 8 aiak_training_llm/train.py 4096 "${ARGS[@]}"
