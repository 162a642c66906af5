#!/bin/bash
# 2 is not 1: the encoding gate is off.
export OFFLINE_PACKING_BMR=2
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
