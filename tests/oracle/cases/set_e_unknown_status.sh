#!/bin/bash
# set -e with a test that may fail: the launch runs only when it holds.
# oracle-input:
# oracle-input: PACK=1
set -e
[ -n "$PACK" ]
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
