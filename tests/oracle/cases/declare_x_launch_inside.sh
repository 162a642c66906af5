#!/bin/bash
# declare -x inside a function: local, but a launch in the function sees it.
export OFFLINE_PACKING_BMR=1
run() {
    declare -x OFFLINE_PACKED_DATA=1
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
}
run
