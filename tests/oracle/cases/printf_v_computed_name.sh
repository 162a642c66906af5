#!/bin/bash
# printf -v with a name held in a variable assigns that variable.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0
for gate in OFFLINE_PACKED_DATA; do
    printf -v "$gate" '%d' 1
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
