#!/bin/bash
# readarray -t from a here-string gets one line: only BMR is exported (a leak).
# oracle-input:
readarray -t ENVS <<< "OFFLINE_PACKING_BMR=1"
export "${ENVS[@]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
