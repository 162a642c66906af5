#!/bin/bash
# The flag travels through two arrays into the launch.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
MBS=4

MODEL_ARGS=(
    --num-layers 28
    --hidden-size 3584
)
TRAINING_ARGS=(
    "${MODEL_ARGS[@]}"
    --micro-batch-size "${MBS}"
    --global-batch-size 512
)

torchrun --nproc_per_node 8 aiak_training_llm/train.py "${TRAINING_ARGS[@]}"
