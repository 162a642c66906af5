#!/bin/bash
# A prefix assignment before a function call reaches the launch inside it.
export OFFLINE_PACKING_BMR=1
run() {
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
}
OFFLINE_PACKED_DATA=1 run
