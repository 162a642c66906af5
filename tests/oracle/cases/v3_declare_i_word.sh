#!/bin/bash
# a word assigned to a -i variable is a variable name: unset, so 0 (both off).
# oracle-input:
declare -i OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA
OFFLINE_PACKING_BMR=yes
OFFLINE_PACKED_DATA=on
export OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
