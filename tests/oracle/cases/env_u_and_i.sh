#!/bin/bash
# env -i after -u: nothing of the shell reaches, only what follows.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
env -u OFFLINE_PACKING_BMR -i PATH="$PATH" OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
