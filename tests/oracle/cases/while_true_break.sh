#!/bin/bash
# while true with a break runs its body once, then goes on.
while true; do
    export OFFLINE_PACKING_BMR=1
    export OFFLINE_PACKED_DATA=1
    break
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
