#!/bin/bash
# Nested and arithmetic defaults.
NNODES=${NNODES:-1}
MBS=${4:-${MICRO_BATCH_SIZE:-2}}
GBS=${GBS:-$((MBS * NNODES * 8))}

export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 --nnodes "$NNODES" aiak_training_llm/train.py \
    --micro-batch-size "$MBS" \
    --global-batch-size "$GBS"
