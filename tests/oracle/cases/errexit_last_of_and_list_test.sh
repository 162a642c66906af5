#!/bin/bash
# set -e: a failing test as the last command of && ends the script.
# oracle-input:
# oracle-input: PACK=1
set -e
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
true && [ -n "$PACK" ]
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
