#!/bin/bash
# while false never runs its body.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
while false; do
    export OFFLINE_PACKED_DATA=0
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
