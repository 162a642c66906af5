#!/bin/bash
# Inside "...", a default word's single quotes are text: "${X:-'1'}" is '1' with its quotes
# (a value the training code rejects); unquoted, ${X:-'1'} is 1. $'...' is decoded in both.
# oracle-input:
# oracle-input: X=1
: "${OFFLINE_PACKED_DATA:='0'}"
export OFFLINE_PACKED_DATA
export OFFLINE_PACKING_BMR="${X:-'1'}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
export OFFLINE_PACKING_BMR=${X:-'1'} OFFLINE_PACKED_DATA="${X:-$'\x31'}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
