#!/bin/bash
# return 1 from a function: the && after the call is skipped.
check() { return 1; }
check && export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
