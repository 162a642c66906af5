#!/bin/bash
# the array holds only BMR=1: export "${ENVS[@]}" leaves PACKED_DATA unset (a leak).
# oracle-input:
ENVS=(OFFLINE_PACKING_BMR=1 OFFLINE_PACKING_VQA=1)
export "${ENVS[@]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
