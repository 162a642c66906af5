#!/bin/bash
# the key may be a variable's value: K=packed picks that element.
# oracle-input:
declare -A CFG=([bmr]=1 [packed]=1)
K=packed
export OFFLINE_PACKING_BMR=${CFG[bmr]}
export OFFLINE_PACKED_DATA=${CFG[$K]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
