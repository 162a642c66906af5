#!/bin/bash
# declare -x returns 0: the whole chain runs.
declare -x OFFLINE_PACKING_BMR=1 && declare -x OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
