#!/bin/bash
# the loop names only BMR: export "$v=1" turns it on alone (a leak).
# oracle-input:
for v in OFFLINE_PACKING_BMR; do
    export "$v=1"
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
