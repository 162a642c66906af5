#!/bin/bash
# MBS=4; (( MBS /= 2 )) leaves 2, wrong with packing on.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
MBS=4
(( MBS /= 2 ))
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size $MBS
