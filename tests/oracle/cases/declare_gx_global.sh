#!/bin/bash
# declare -g -x inside a function is global.
export OFFLINE_PACKING_BMR=1
setup() {
    declare -g -x OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
