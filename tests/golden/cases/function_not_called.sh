#!/bin/bash
# The function that would export the batch gate is defined but never called.
export OFFLINE_PACKING_BMR=1

enable_packed_batches() {
    export OFFLINE_PACKED_DATA=1
}

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
