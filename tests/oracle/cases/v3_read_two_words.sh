#!/bin/bash
# read -r A B <<< "1 1": both 1.
# oracle-input:
read -r A B <<< "1 1"
export OFFLINE_PACKING_BMR=$A OFFLINE_PACKED_DATA=$B
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
