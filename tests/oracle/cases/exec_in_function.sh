#!/bin/bash
# exec inside a function replaces the shell: the second launch never runs.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
run() { exec torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1; }
run
export OFFLINE_PACKING_BMR=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
