#!/bin/bash
# continue skips the rest of a pass: the export after it never runs, both stay on.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
for g in a b; do
    continue
    export OFFLINE_PACKED_DATA=0
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
