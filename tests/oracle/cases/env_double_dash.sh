#!/bin/bash
# env -- NAME=value: the assignment still applies after --.
export OFFLINE_PACKING_BMR=1
env -- OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
