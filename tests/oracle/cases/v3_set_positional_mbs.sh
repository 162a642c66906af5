#!/bin/bash
# set -- "$@" --micro-batch-size 2 rewrites the arguments passed on: the launch gets 2 last, with packing on.
# oracle-input:
# oracle-input: -- --micro-batch-size 1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
set -- "$@" --micro-batch-size 2
torchrun --nproc_per_node 8 aiak_training_llm/train.py "$@"
