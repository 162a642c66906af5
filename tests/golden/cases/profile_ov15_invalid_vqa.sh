#!/bin/bash
# packgate profile=ov15
# Under 1.5 the VQA gate is live, so its value is parsed with int().
export OFFLINE_PACKING_VQA=true
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
