#!/bin/bash
# if true always takes the then branch.
if true; then
    export OFFLINE_PACKING_BMR=1
    export OFFLINE_PACKED_DATA=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
