#!/bin/bash
# set -e: false ends the script before the launch.
set -e
export OFFLINE_PACKING_BMR=1
false
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
