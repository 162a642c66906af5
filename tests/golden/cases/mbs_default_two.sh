#!/bin/bash
# Positional default of 2 with packing on.
MBS="${4:-2}"

export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size "${MBS}"
