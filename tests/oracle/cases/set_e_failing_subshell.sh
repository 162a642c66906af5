#!/bin/bash
# set -e: a subshell that exits 1 ends the script too.
set -e
export OFFLINE_PACKING_BMR=1
( exit 1 )
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
