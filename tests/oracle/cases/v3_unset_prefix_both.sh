#!/bin/bash
# unset "${!OFFLINE_PACK@}" removes every name with that prefix: both gates (off, off).
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
unset "${!OFFLINE_PACK@}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
