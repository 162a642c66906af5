#!/bin/bash
# ${X:=d} assigns the default in this shell; the export makes it reach the trainer.
: "${OFFLINE_PACKING_BMR:=1}"
: "${OFFLINE_PACKED_DATA:=1}"
export OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
