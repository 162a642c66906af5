#!/bin/bash
# under set -e, local outside a function fails and ends the script before the launch.
# oracle-input:
set -e
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
local OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
