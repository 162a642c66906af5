#!/bin/bash
# One export line: bash expands every value before it assigns any, so OFFLINE_PACKED_DATA gets
# the 0 from line 4, not the 1 set beside it.
OFFLINE_PACKING_BMR=0
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=$OFFLINE_PACKING_BMR

torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
