#!/bin/bash
# setsid keeps this shell's exported environment: a gate assigned but not exported stays behind.
# oracle-input:
# oracle-input: EXPORT=1
export OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
[ -n "$EXPORT" ] && export OFFLINE_PACKED_DATA
setsid --fork --wait torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
