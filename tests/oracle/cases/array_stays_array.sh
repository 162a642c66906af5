#!/bin/bash
# A variable that is an array stays one when `export NAME=v`, `declare NAME=v` or a plain
# assignment sets it (they set element 0), and `declare -a NAME` makes one of a scalar:
# no environment holds an array, so the trainer sees the gate unset.
export OFFLINE_PACKING_BMR=1
declare -a OFFLINE_PACKED_DATA
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
export OFFLINE_PACKING_BMR=1
declare -a OFFLINE_PACKING_BMR
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
unset OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA
OFFLINE_PACKED_DATA=(1 0)
declare -x OFFLINE_PACKED_DATA=1
export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
