#!/bin/bash
# The launch itself runs in the background with nohup; it still inherits the exports.
LOG_DIR=/mnt/logs
export OFFLINE_PACKING_BMR=1

nohup torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1 > "$LOG_DIR/train.log" 2>&1 &
wait
