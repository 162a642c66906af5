#!/bin/bash
# bash never puts an array in a command's environment, exported or not: the launch sees the gate unset.
# oracle-input:
declare -a OFFLINE_PACKING_BMR=(1 0)
export OFFLINE_PACKING_BMR
OFFLINE_PACKED_DATA=(1)
export OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
