#!/bin/bash
# for v in both gates; export "$v=1": each pass exports one name, both are on.
# oracle-input:
for v in OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA; do
    export "$v=1"
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
