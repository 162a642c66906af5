#!/bin/bash
# `X=1 export X`: the prefix's value outlives the command, exported; before another name it is gone again.
# oracle-input:
OFFLINE_PACKING_BMR=1 export OFFLINE_PACKING_BMR
OFFLINE_PACKED_DATA=1 export OFFLINE_PACKING_VQA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
