#!/bin/bash
# export "$1=1" names what the caller passes: the gates are the caller's choice.
# oracle-input:
# oracle-input: -- OFFLINE_PACKED_DATA
# oracle-input: -- OFFLINE_PACKING_BMR
export OFFLINE_PACKING_BMR=1
export "${1:-X}=1"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
