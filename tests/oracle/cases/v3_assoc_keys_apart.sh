#!/bin/bash
# with -A the keys stay apart: bmr 1, packed 0, so BMR is on alone (a leak).
# oracle-input:
declare -A CFG=([packed]=0 [bmr]=1)
export OFFLINE_PACKING_BMR="${CFG[bmr]}"
export OFFLINE_PACKED_DATA="${CFG[packed]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
