#!/bin/bash
# readonly NAME after its assignment: a later export of another value fails.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
readonly OFFLINE_PACKED_DATA
export OFFLINE_PACKED_DATA=0 2>/dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
