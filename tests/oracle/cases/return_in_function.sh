#!/bin/bash
# return ends the function: the export after it never runs.
setup() {
    export OFFLINE_PACKING_BMR=1
    return
    export OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
