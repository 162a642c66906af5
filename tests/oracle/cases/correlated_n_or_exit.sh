#!/bin/bash
# [ -n $1 ] || exit, then [ -n $1 ] && ...: the same test, known true.
# oracle-input:
# oracle-input: -- x
export OFFLINE_PACKED_DATA=1
[ -n "$1" ] || exit 1
[ -n "$1" ] && export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
