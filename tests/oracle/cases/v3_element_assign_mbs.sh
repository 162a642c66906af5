#!/bin/bash
# ARGS[1]=2 replaces the micro-batch size in the argument array the launch gets (only for 'big').
# oracle-input:
# oracle-input: -- big
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
ARGS=(--micro-batch-size 1 --seq-length 4096)
if [ "$1" = big ]; then
    ARGS[1]=2
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py "${ARGS[@]}"
