#!/bin/bash
# int(" 1") and int("1 ") are 1: both gates are on.
export OFFLINE_PACKING_BMR=" 1"
export OFFLINE_PACKED_DATA='1 '

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
