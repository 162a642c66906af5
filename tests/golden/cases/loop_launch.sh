#!/bin/bash
# One launch per stage, inside a loop; only the encoding gate is exported.
export OFFLINE_PACKING_BMR=1

for STAGE in 1 2; do
    torchrun --nproc_per_node 8 aiak_training_llm/train.py \
        --data-path "/mnt/data/stage${STAGE}" \
        --micro-batch-size 1
done
