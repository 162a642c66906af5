#!/bin/bash
# A realistic argument array: comments, blank lines, trailing comments, a disabled flag.
export OFFLINE_PACKING_BMR='1'
export OFFLINE_PACKED_DATA='1'

TRAINING_ARGS=(
    # --- batch ---
    # --micro-batch-size 8
    --micro-batch-size 2   # per GPU

    --global-batch-size 256   # across all ranks
    # --- schedule ---
    --train-iters 20000

    --lr 1e-5
)

torchrun --nproc_per_node 8 aiak_training_llm/train.py "${TRAINING_ARGS[@]}"
