#!/bin/bash
# source runs a file in this shell; the file is not followed, so it changes nothing here.
export OFFLINE_PACKING_BMR=1
source ./cluster_env.sh

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
