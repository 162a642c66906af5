#!/bin/bash
# export "${ENVS[@]}" of NAME=value words exports each: both on.
# oracle-input:
ENVS=(OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1)
export "${ENVS[@]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
