#!/bin/bash
# Values first, exports later: both reach the trainer.
OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
NNODES=${NNODES:-1}

export OFFLINE_PACKING_BMR
export OFFLINE_PACKED_DATA

torchrun --nproc_per_node 8 --nnodes "$NNODES" aiak_training_llm/train.py \
    --micro-batch-size 1
