#!/bin/bash
# Copied from a 1.5 recipe: the VQA gate is not read by OV2.
export OFFLINE_PACKING_VQA=1
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
