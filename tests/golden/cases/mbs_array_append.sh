#!/bin/bash
# Arguments appended with +=.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

TRAINING_ARGS=(--seq-length 16384)
TRAINING_ARGS+=(--micro-batch-size 2)
TRAINING_ARGS+=(--global-batch-size 256)

torchrun --nproc_per_node 8 aiak_training_llm/train.py "${TRAINING_ARGS[@]}"
