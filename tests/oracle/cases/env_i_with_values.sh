#!/bin/bash
# env -i NAME=value ...: only what follows -i reaches the launch.
export OFFLINE_PACKED_DATA=0
env -i PATH="$PATH" OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
