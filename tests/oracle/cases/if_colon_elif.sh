#!/bin/bash
# if : takes the then branch; the elif is never tested.
# oracle-input:
# oracle-input: X=1
export OFFLINE_PACKING_BMR=1
if :; then
    export OFFLINE_PACKED_DATA=1
elif [[ -n "$X" ]]; then
    export OFFLINE_PACKED_DATA=0
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
