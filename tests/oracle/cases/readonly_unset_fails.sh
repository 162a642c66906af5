#!/bin/bash
# unset of a readonly variable fails: the gate stays.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
readonly OFFLINE_PACKED_DATA
unset OFFLINE_PACKED_DATA 2>/dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
