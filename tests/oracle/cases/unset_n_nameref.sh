#!/bin/bash
# unset -n of a nameref removes the reference, not the variable it points to.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
declare -n batch_gate=OFFLINE_PACKED_DATA
unset -n batch_gate
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
