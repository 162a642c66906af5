#!/bin/bash
# export X="${X:-default}": the caller may override, the default is on.
export OFFLINE_PACKING_BMR="${OFFLINE_PACKING_BMR:-1}"
export OFFLINE_PACKED_DATA="${OFFLINE_PACKED_DATA:-1}"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
