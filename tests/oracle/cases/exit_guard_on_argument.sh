#!/bin/bash
# [ -z $1 ] && exit: only the paths with an argument reach the launch.
# oracle-input:
# oracle-input: -- x
export OFFLINE_PACKING_BMR=1
[ -z "$1" ] && exit 1
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
