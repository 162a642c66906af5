#!/bin/bash
# local returns 0 inside a function: the exports after it run.
setup() {
    local stage=sft && export OFFLINE_PACKING_BMR=1 && export OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
