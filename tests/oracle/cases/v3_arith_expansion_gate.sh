#!/bin/bash
# a gate computed by $(( )): STAGE 2 gives PACKED_DATA $(( STAGE >= 2 )) = 1, STAGE 1 gives 0 beside BMR 1 (a leak).
# oracle-input:
# oracle-input: -- 1
STAGE=2
[ "$1" = 1 ] && STAGE=1
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=$(( STAGE >= 2 ))
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
