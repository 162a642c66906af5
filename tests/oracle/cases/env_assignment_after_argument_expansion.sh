#!/bin/bash
# `env NAME=value CMD ARGS`: env's assignments are its own arguments; ARGS were expanded by
# this shell before env ran, with this shell's MBS.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
MBS=1
env MBS=8 torchrun aiak_training_llm/train.py --micro-batch-size $MBS
