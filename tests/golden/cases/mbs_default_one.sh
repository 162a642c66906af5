#!/bin/bash
# Positional default of 1: fine, even though the caller could pass another size.
# usage: run.sh DATA_PATH CKPT NNODES [MBS]
DATA_PATH=$1
CKPT=$2
NNODES=${3:-1}
MBS="${4:-1}"

export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 --nnodes "$NNODES" aiak_training_llm/train.py \
    --data-path "$DATA_PATH" \
    --load "$CKPT" \
    --micro-batch-size "${MBS}"
