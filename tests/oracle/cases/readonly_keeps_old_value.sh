#!/bin/bash
# readonly X=0, then export X=1 fails: X keeps 0, and the failed export still exports it.
export OFFLINE_PACKING_BMR=1
readonly OFFLINE_PACKED_DATA=0
export OFFLINE_PACKED_DATA=1 2>/dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
