#!/bin/bash
# CFG+=([packed]=1) adds a key to an associative array: both gates read 1.
declare -A CFG=([bmr]=1)
CFG+=([packed]=1)
export OFFLINE_PACKING_BMR=${CFG[bmr]} OFFLINE_PACKED_DATA=${CFG[packed]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
