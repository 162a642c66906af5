#!/bin/bash
# declare -i N=0; N+=1 adds: the gate is 1.
# oracle-input:
declare -i OFFLINE_PACKED_DATA=0
OFFLINE_PACKED_DATA+=1
export OFFLINE_PACKED_DATA OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
