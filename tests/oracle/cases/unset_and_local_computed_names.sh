#!/bin/bash
# `unset "$k"` and a function's `local "$k=$v"` with a name the caller chooses: any gate may be
# the one unset or assigned (PG009 says so); after the function returns its locals are gone.
# oracle-input:
# oracle-input: K=OFFLINE_PACKED_DATA
# oracle-input: K=OFFLINE_PACKING_BMR
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
f() {
    local "${K:-X}=0"
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
}
f
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
unset "${K:-X}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
