#!/bin/bash
# $(( GBS / (DP * GA) )) over the script's own numbers is 1 with GA=8 (right with packing on), 2 with GA=4.
# oracle-input:
# oracle-input: -- half
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
GBS=64
DP=8
GA=8
[ "$1" = half ] && GA=4
MBS=$(( GBS / (DP * GA) ))
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "$MBS"
