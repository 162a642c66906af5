#!/bin/bash
# A function's status is its last command's: false, so && skips.
setup() { export OFFLINE_PACKED_DATA=1; false; }
export OFFLINE_PACKING_BMR=1
setup && export OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
