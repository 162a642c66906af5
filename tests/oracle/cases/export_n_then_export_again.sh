#!/bin/bash
# export -n, then export again: exported once more.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
export -n OFFLINE_PACKED_DATA
export OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
