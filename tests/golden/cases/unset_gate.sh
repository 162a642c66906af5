#!/bin/bash
# unset removes the batch gate again before the launch.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

# evaluation run: no packed batches
unset OFFLINE_PACKED_DATA

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
