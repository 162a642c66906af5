#!/bin/bash
# the last name gets the rest of the line: B is '1 0', which int() refuses.
# oracle-input:
read -r A B <<< "1 1 0"
export OFFLINE_PACKING_BMR=$A OFFLINE_PACKED_DATA=$B
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
