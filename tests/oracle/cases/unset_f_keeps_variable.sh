#!/bin/bash
# unset -f removes a function, not the variable of the same name.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
unset -f OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
