#!/bin/bash
# declare -gx "$v=1" in a loop inside a function is global: both on after the call.
# oracle-input:
setup() {
    local v
    for v in OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA; do
        declare -gx "$v=1"
    done
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
