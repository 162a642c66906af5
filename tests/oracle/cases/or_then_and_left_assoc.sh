#!/bin/bash
# a || b && c is (a || b) && c: the batch gate is exported on every path.
# oracle-input:
# oracle-input: A=1
[[ -n "$A" ]] || export OFFLINE_PACKING_BMR=0 && export OFFLINE_PACKED_DATA=1
export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
