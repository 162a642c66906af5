#!/bin/bash
# allexport spelled out: both gates are exported.
set -o allexport
OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
set +o allexport

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
