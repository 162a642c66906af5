#!/bin/bash
# exec replaces the shell: nothing after it runs.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
exec torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
export OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
