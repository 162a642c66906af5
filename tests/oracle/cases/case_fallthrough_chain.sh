#!/bin/bash
# ;& twice: the first arm runs all three bodies.
# oracle-input: -- a
# oracle-input: -- b
# oracle-input: -- c
# oracle-input: -- d
case "$1" in
    a) export OFFLINE_PACKING_BMR=0 ;&
    b) export OFFLINE_PACKING_BMR=1 ;&
    c) export OFFLINE_PACKED_DATA=1 ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
