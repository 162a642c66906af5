#!/bin/bash
# exit inside a function ends the whole script, not just the function.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
stop_here() {
    echo "dry run"
    exit 0
}
stop_here
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
