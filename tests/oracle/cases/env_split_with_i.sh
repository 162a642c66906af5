#!/bin/bash
# env -i -S: the split string's assignments only.
export OFFLINE_PACKING_BMR=1
env -i -S "PATH=$PATH OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
