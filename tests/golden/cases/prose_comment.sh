#!/bin/bash
# For packed shards set OFFLINE_PACKING_BMR=1 together with OFFLINE_PACKED_DATA=1.
# This run uses unpacked data, so neither is set (see docs: "OFFLINE_PACKING_BMR=1 alone leaks").
echo "note: OFFLINE_PACKING_BMR=1 is not needed here"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 4
