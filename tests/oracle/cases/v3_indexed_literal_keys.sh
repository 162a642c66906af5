#!/bin/bash
# [2]=1 [0]=0 in an indexed literal: ${A[2]} is 1, ${A[1]} is empty.
# oracle-input:
A=([2]=1 [0]=0)
export OFFLINE_PACKING_BMR=${A[2]}
export OFFLINE_PACKED_DATA=${A[0]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
