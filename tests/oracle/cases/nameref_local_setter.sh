#!/bin/bash
# A setter function through `local -n`: the caller's gate changes, the reference
# itself is gone after the call.
set_gate() {
    local -n ref=$1
    ref=$2
}
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0
set_gate OFFLINE_PACKED_DATA 1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
set_gate OFFLINE_PACKING_BMR 0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
