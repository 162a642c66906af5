#!/bin/bash
# read without -r takes a backslash as an escape: A is 1 and B is 1 here too.
read A B <<< '1 \1'
export OFFLINE_PACKING_BMR=$A OFFLINE_PACKED_DATA=$B
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
