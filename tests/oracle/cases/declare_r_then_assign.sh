#!/bin/bash
# declare -r X=1, then X=0 fails: the later export exports 1.
export OFFLINE_PACKING_BMR=1
declare -r OFFLINE_PACKED_DATA=1
OFFLINE_PACKED_DATA=0 2>/dev/null
export OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
