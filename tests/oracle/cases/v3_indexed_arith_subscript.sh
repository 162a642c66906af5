#!/bin/bash
# a subscript is arithmetic over the script's variables: A[i+1] with i=1 is the third element.
# oracle-input:
A=(0 0 1)
i=1
export OFFLINE_PACKING_BMR=${A[i+1]}
export OFFLINE_PACKED_DATA=${A[$i+1]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
