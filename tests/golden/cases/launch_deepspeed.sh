#!/bin/bash
export OFFLINE_PACKING_BMR=1

deepspeed --num_gpus 8 aiak_training_llm/train.py \
    --micro-batch-size 1
