#!/bin/bash
# if on the first argument: packed or not, never one gate alone (no finding).
# oracle-input:
# oracle-input: -- packed
if [ "$1" = packed ]; then
    export OFFLINE_PACKING_BMR=1
    export OFFLINE_PACKED_DATA=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
