#!/bin/bash
# Throughput sweep: the loop variable takes each listed value in turn.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

for MBS in 1 2; do
    torchrun --nproc_per_node 8 aiak_training_llm/train.py \
        --micro-batch-size "$MBS" \
        --train-iters 50
done
