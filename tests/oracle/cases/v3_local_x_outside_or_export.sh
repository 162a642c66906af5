#!/bin/bash
# local -x outside a function fails, so the || export runs: both on.
# oracle-input:
export OFFLINE_PACKING_BMR=1
local -x OFFLINE_PACKED_DATA=1 2>/dev/null || export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
