#!/bin/bash
# A background job returns 0 at once: the && runs.
sleep 0 &
wait
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
