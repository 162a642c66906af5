#!/bin/bash
# A failing export (readonly) returns 1: the rest of the && list is skipped.
readonly OFFLINE_PACKED_DATA=0
export OFFLINE_PACKED_DATA=1 2>/dev/null && export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
