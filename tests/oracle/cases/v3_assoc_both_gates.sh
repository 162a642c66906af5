#!/bin/bash
# declare -A: ${CFG[bmr]} is the element's value 1, not the text [bmr]=1 (both on).
# oracle-input:
declare -A CFG=([bmr]=1 [packed]=1)
export OFFLINE_PACKING_BMR="${CFG[bmr]}"
export OFFLINE_PACKED_DATA="${CFG[packed]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
