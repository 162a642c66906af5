#!/bin/bash
# Quoted defaults inside ${X:-...}.
DATA_PATH=${DATA_PATH:-"/mnt/data/llava ov2/packed"}
MBS=${MBS:-"2"}

export OFFLINE_PACKING_BMR='1'
export OFFLINE_PACKED_DATA='1'

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --data-path "$DATA_PATH" \
    --micro-batch-size "$MBS"
