#!/bin/bash
# packgate disable=missing-companion
# A/B control run: encoding gate only, to measure cross-sample leakage.
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
