#!/bin/bash
# source "$ENV_FILE": which file runs is the caller's choice, so the gates after it are unknown (PG009), not an error.
# oracle-input: ENV_FILE=./pack.sh
# oracle-input: ENV_FILE=./nopack.sh
export OFFLINE_PACKING_BMR=1
source "$ENV_FILE"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
