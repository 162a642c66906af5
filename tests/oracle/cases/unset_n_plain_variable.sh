#!/bin/bash
# unset -n of a variable that is not a nameref: bash 5.2 leaves the variable (and its export) in place.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
unset -n OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
