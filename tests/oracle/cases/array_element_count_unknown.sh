#!/bin/bash
# `A+=($V)` adds no element when V is empty and several when it has blanks, so the elements
# after it are at positions the script cannot know; those before it are where they were.
# oracle-input:
# oracle-input: V=1
# oracle-input: V='1 1'
A=(1)
A+=($V)
A+=(0)
export OFFLINE_PACKING_BMR=${A[0]} OFFLINE_PACKED_DATA=${A[2]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
