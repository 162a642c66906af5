#!/bin/bash
# [ -z $1 ] && exit, then [ -n $1 ] && ...: the second test always holds.
# oracle-input:
# oracle-input: -- x
[ -z "$1" ] && exit 1
[ -n "$1" ] && export OFFLINE_PACKING_BMR=1 && export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
