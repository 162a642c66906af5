#!/bin/bash
# ${X:=d} assigns a shell variable; without an export the trainer does not see the default.
export OFFLINE_PACKING_BMR=1
: "${OFFLINE_PACKED_DATA:=1}"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
