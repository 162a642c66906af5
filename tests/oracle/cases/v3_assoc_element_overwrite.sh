#!/bin/bash
# a later CFG[packed]=0 replaces that element only: BMR on alone.
# oracle-input:
declare -A CFG=([bmr]=1 [packed]=1)
CFG[packed]=0
export OFFLINE_PACKING_BMR=${CFG[bmr]} OFFLINE_PACKED_DATA=${CFG[packed]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
