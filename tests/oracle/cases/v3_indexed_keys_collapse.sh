#!/bin/bash
# without -A the subscripts are arithmetic: bmr and packed are both 0, so one element, 1, serves both (both on).
# oracle-input:
CFG=([packed]=0 [bmr]=1)
export OFFLINE_PACKING_BMR="${CFG[bmr]}"
export OFFLINE_PACKED_DATA="${CFG[packed]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
