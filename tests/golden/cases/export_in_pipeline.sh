#!/bin/bash
# Every stage of a pipeline runs in its own subshell.
LOG=/mnt/logs/setup.log
export OFFLINE_PACKING_BMR=1
{ export OFFLINE_PACKED_DATA=1; echo "packed data on"; } | tee -a "$LOG"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
