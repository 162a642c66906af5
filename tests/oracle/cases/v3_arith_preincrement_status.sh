#!/bin/bash
# (( ++i )) is 1, status 0: set -e goes on and PACKED_DATA is turned off (a leak).
# oracle-input:
set -e
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
i=0
(( ++i ))
export OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
