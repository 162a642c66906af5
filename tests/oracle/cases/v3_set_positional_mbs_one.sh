#!/bin/bash
# set -- --micro-batch-size 1 replaces the caller's arguments: 1 with packing on (right).
# oracle-input:
# oracle-input: -- --micro-batch-size 4
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
set -- --micro-batch-size 1
torchrun --nproc_per_node 8 aiak_training_llm/train.py "$@"
