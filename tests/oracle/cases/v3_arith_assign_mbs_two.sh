#!/bin/bash
# (( MBS = GBS / DP )) with GBS=16 and DP=8 is 2, wrong with packing on.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
GBS=16
DP=8
(( MBS = GBS / DP ))
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "$MBS"
