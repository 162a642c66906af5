#!/bin/bash
# ${X:=d} assigns X where it is unset (or empty, for :=), and X keeps the export mark an earlier export gave it.
# oracle-input:
export OFFLINE_PACKED_DATA
: "${OFFLINE_PACKED_DATA:=1}"
OFFLINE_PACKING_BMR=""
export OFFLINE_PACKING_BMR
: "${OFFLINE_PACKING_BMR:=1}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
