#!/bin/bash
# env -S splits its string into assignments and the command.
export OFFLINE_PACKING_BMR=1
env -S 'OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1'
