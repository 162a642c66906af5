#!/bin/bash
# A gate from a variable the script never sets: empty when the caller does not set it.
# oracle-input:
# oracle-input: SOME_VAR=1
# oracle-input: SOME_VAR=0
export OFFLINE_PACKING_BMR="${SOME_VAR}"
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
