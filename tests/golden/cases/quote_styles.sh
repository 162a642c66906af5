#!/bin/bash
# '1', "1" and bare 1 are the same string after quote removal.
export OFFLINE_PACKING_BMR='1'
export OFFLINE_PACKED_DATA="1"
MBS=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size $MBS
