#!/bin/bash
# export of a valid name returns 0: the || side never runs.
export OFFLINE_PACKING_BMR=1 || export OFFLINE_PACKING_BMR=0
export OFFLINE_PACKED_DATA=1 || unset OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
