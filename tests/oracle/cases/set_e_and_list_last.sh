#!/bin/bash
# set -e ends the script when the last command of an && list fails.
set -e
export OFFLINE_PACKING_BMR=1
true && false
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
