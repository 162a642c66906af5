#!/bin/bash
# declare -x "$v=1" in a function without -g is local: gone after the call, BMR (exported outside) alone.
# oracle-input:
export OFFLINE_PACKING_BMR=1
setup() {
    local v=OFFLINE_PACKED_DATA
    declare -x "$v=1"
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
