#!/bin/bash
# : ${X:=1} assigns X in this shell: export X then exports 1.
: "${OFFLINE_PACKED_DATA:=1}"
export OFFLINE_PACKED_DATA
export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
