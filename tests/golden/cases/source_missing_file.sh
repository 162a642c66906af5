#!/bin/bash
# source of a file that does not exist: bash reports it and goes on; nothing is exported.
export OFFLINE_PACKING_BMR=1
source ./cluster_env.sh

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
