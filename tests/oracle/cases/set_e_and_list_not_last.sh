#!/bin/bash
# set -e ignores a failure that is not the last command of an && list.
set -e
export OFFLINE_PACKING_BMR=1
false && echo never
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
