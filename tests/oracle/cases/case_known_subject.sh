#!/bin/bash
# A subject the script set picks its arm: only the packed arm runs.
FORMAT=packed
case "$FORMAT" in
    packed) export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 ;;
    legacy) export OFFLINE_PACKED_DATA=1 ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
