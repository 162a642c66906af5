#!/bin/bash
# until true never runs its body.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
until true; do
    unset OFFLINE_PACKED_DATA
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
