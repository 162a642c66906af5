#!/bin/bash
# typeset -x inside a function is local like declare -x.
export OFFLINE_PACKING_BMR=1
setup() {
    typeset -x OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
