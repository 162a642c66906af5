#!/bin/bash
# a key the associative array lacks expands to '': PACKED_DATA is empty (int('') raises).
# oracle-input:
declare -A CFG=([bmr]=1 [packed]=1)
export OFFLINE_PACKING_BMR="${CFG[bmr]}"
export OFFLINE_PACKED_DATA="${CFG[packd]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
