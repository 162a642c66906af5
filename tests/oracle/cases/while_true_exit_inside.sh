#!/bin/bash
# while true without a break never reaches what follows; the launch inside it runs.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
while true; do
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
    exit 0
done
export OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
