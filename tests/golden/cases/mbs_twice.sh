#!/bin/bash
# argparse keeps the last --micro-batch-size: here 1.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

TRAINING_ARGS=(
    --micro-batch-size 4
    --global-batch-size 256
)

torchrun --nproc_per_node 8 aiak_training_llm/train.py "${TRAINING_ARGS[@]}" \
    --micro-batch-size 1
