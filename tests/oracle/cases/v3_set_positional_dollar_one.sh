#!/bin/bash
# after set -- sft x, $1 is sft: the case takes the packing arm whatever the caller passed.
# oracle-input:
# oracle-input: -- pretrain
set -- sft x
case "$1" in
    sft) export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 ;;
    *) export OFFLINE_PACKING_BMR=1 ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
