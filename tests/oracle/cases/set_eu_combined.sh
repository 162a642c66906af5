#!/bin/bash
# set -eu: errexit from the combined flags; false ends the script.
set -eu
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
false
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
