#!/bin/bash
# the per-stage table gives stage s2 a micro-batch size of 2 while packing is on.
# oracle-input:
declare -A MBS_BY_STAGE=([s1]=4 [s2]=2)
STAGE=s2
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS_BY_STAGE[$STAGE]}"
