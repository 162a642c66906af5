#!/bin/bash
# The launch is the first stage of a pipeline into tee; it still inherits the exports.
logfile=/mnt/logs/stage2_$(date +%Y%m%d).log
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1 2>&1 | tee "$logfile"
