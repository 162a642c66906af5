#!/bin/bash
# env "${ENVS[@]}" CMD: each element of the array is one of env's words, NAME=value sets it for CMD.
# oracle-input:
# oracle-input: BOTH=1
ENVS=(OFFLINE_PACKING_BMR=1)
[ -n "$BOTH" ] && ENVS+=("OFFLINE_PACKED_DATA=1")
env "${ENVS[@]}" torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
