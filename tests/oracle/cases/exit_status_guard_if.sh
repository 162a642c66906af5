#!/bin/bash
# if a command fails, exit: the launch after the guard sees both gates.
# oracle-input:
# oracle-input: +data/
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if ! test -d data; then exit 1; fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
