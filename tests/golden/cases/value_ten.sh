#!/bin/bash
# 10 is not 1: the batch gate is off.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=10

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
