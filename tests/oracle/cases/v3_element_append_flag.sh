#!/bin/bash
# ARGS[4]=--micro-batch-size and ARGS[5]=2 after a 4-word array: the last flag wins, 2 with packing on.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
ARGS=(--micro-batch-size 1 --seq-length 4096)
ARGS[4]=--micro-batch-size
ARGS[5]=2
torchrun --nproc_per_node 8 aiak_training_llm/train.py "${ARGS[@]}"
