#!/bin/bash
# declare -gx (one word) is global too.
setup() {
    declare -gx OFFLINE_PACKING_BMR=1
    declare -gx OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
