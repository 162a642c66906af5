#!/bin/bash
# the first pass exports BMR, the second PACKED_DATA: after the loop both are on.
# oracle-input:
for g in bmr packed; do
    case $g in
        bmr) export OFFLINE_PACKING_BMR=1 ;;
        packed) export OFFLINE_PACKED_DATA=1 ;;
    esac
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
