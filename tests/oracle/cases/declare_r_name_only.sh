#!/bin/bash
# declare -r NAME: unset fails and the gate stays.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
declare -r OFFLINE_PACKING_BMR
unset OFFLINE_PACKING_BMR 2>/dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
