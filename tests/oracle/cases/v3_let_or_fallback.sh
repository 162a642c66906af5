#!/bin/bash
# let "N = 0" returns 1, so the || branch turns PACKED_DATA on beside BMR (both on).
export OFFLINE_PACKING_BMR=1
let "N = 0" || export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
