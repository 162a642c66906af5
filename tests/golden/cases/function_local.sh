#!/bin/bash
# A local variable lives until the function returns, exported or not.
export OFFLINE_PACKING_BMR=1

setup_batches() {
    local OFFLINE_PACKED_DATA=1
    export OFFLINE_PACKED_DATA
    echo "packed batches: $OFFLINE_PACKED_DATA"
}

setup_batches
torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
