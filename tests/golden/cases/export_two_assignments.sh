#!/bin/bash
# Two assignments in one export: the batch gate is off.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
