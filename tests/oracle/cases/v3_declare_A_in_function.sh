#!/bin/bash
# an associative array filled by a function, read at the top level: BMR 1, PACKED_DATA 0 (a leak).
declare -A CFG
fill() {
    CFG[bmr]=1
    CFG[packed]=0
}
fill
export OFFLINE_PACKING_BMR=${CFG[bmr]} OFFLINE_PACKED_DATA=${CFG[packed]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
