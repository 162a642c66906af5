#!/bin/bash
# ${A[-1]} is the last element: 1 for both gates.
# oracle-input:
A=(0 0 1)
export OFFLINE_PACKING_BMR=${A[-1]}
export OFFLINE_PACKED_DATA=${A[2]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
