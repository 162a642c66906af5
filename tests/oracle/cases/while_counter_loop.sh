#!/bin/bash
# A counted while loop: the body runs twice, the exports stay.
n=0
while [ "$n" -lt 2 ]; do
    n=$((n + 1))
    export OFFLINE_PACKING_BMR=1
done
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
