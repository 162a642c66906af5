#!/bin/bash
# (( i++ )) returns the status of the old value: 0, so under set -e the script ends there.
# oracle-input:
set -e
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
i=0
(( i++ ))
export OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
