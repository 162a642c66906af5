#!/bin/bash
# Inside a function, declare -x makes a local variable (declare -gx would be global).
export OFFLINE_PACKING_BMR=1

enable_packed_batches() {
    declare -x OFFLINE_PACKED_DATA=1
}

enable_packed_batches
torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
