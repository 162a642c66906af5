#!/bin/bash
# shift moves $1: the earlier test on it says nothing any more.
# oracle-input: -- a
# oracle-input: -- a b
[ -z "$1" ] && exit 1
shift
export OFFLINE_PACKED_DATA=1
[ -n "$1" ] && export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
