#!/bin/bash
# export -p only prints: nothing is exported or removed.
export OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
export -p > /dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
