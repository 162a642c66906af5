#!/bin/bash
# set -e is suspended inside a function called as an if condition: its export after false runs.
set -e
setup() {
    false
    export OFFLINE_PACKED_DATA=1
}
if setup; then
    export OFFLINE_PACKING_BMR=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
