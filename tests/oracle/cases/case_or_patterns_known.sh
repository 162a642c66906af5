#!/bin/bash
# a|b pattern with a subject the script set: the arm runs.
MODE=b
case "$MODE" in
    a|b) export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 ;;
    *) export OFFLINE_PACKING_BMR=0 OFFLINE_PACKED_DATA=0 ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
