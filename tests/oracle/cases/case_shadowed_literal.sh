#!/bin/bash
# pack* matches packed first: the packed arm alone never runs.
# oracle-input:
# oracle-input: -- packed
# oracle-input: -- other
case "$1" in
    pack*) export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 ;;
    packed) export OFFLINE_PACKED_DATA=1 ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
