#!/bin/bash
# local -x is gone after the function returns.
export OFFLINE_PACKING_BMR=1
setup() {
    local -x OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
