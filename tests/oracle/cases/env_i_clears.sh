#!/bin/bash
# env -i: the launch starts with an empty environment (PATH passed on).
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
env -i PATH="$PATH" torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
