#!/bin/bash
# while read: the body may run or not (input decides).
# oracle-input:
# oracle-partial: read gets no line from /dev/null here; a caller's input may give some
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
while read -r line; do export OFFLINE_PACKED_DATA=0; done < /dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
