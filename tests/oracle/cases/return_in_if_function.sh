#!/bin/bash
# return in the then-branch skips the rest of the function on that path.
# oracle-input:
# oracle-input: FAST=1
setup() {
    export OFFLINE_PACKING_BMR=1
    if [ -n "$FAST" ]; then return 0; fi
    export OFFLINE_PACKED_DATA=1
}
setup
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
