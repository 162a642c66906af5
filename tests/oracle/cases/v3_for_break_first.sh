#!/bin/bash
# break in the first pass: the second never runs, BMR alone (a leak).
# oracle-input:
for g in bmr packed; do
    case $g in
        bmr) export OFFLINE_PACKING_BMR=1; break ;;
        packed) export OFFLINE_PACKED_DATA=1 ;;
    esac
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
