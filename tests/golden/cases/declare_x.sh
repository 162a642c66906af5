#!/bin/bash
# declare -x exports; plain declare does not.
declare -x OFFLINE_PACKING_BMR=1
declare OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1 \
    --seq-length 16384
