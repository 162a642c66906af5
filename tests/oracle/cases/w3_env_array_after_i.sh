#!/bin/bash
# env -i "${ENVS[@]}" CMD: the environment is cleared, then the array's assignments are all CMD gets.
# oracle-input:
export OFFLINE_PACKED_DATA=1
ENVS=(OFFLINE_PACKING_BMR=1)
env -i PATH="$PATH" "${ENVS[@]}" torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
