#!/bin/bash
# The size comes straight from the 4th argument: the script cannot know it.
MBS=$4

export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size "$MBS"
