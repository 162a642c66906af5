#!/bin/bash
# set -e without pipefail: a pipeline's status is its last command's, so false | true goes on.
set -e
export OFFLINE_PACKING_BMR=1
false | true
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
