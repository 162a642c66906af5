#!/bin/bash
# bash FILE runs in a child process: its exports never come back.
export OFFLINE_PACKING_BMR=1
bash ./scripts/set_packing_env.sh

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
