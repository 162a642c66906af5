#!/bin/bash
# elements set out of order expand in subscript order: ARGS[3]=1 after ARGS[1]=--micro-batch-size... gives the flag then 1.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
ARGS=()
ARGS[3]=1
ARGS[2]=--micro-batch-size
ARGS[0]=--seq-length
ARGS[1]=4096
torchrun --nproc_per_node 8 aiak_training_llm/train.py "${ARGS[@]}"
