#!/bin/bash
# (( MBS = $1 )) from the caller's argument: what the launch gets is the caller's.
# oracle-input:
# oracle-input: -- 2
# oracle-input: -- 1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
(( MBS = ${1:-1} ))
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size $MBS
