#!/bin/bash
export OFFLINE_PACKED_DATA=1

accelerate launch --num_processes 8 aiak_training_llm/train.py \
    --micro-batch-size 1
