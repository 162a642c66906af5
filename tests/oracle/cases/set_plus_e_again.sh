#!/bin/bash
# set -e, then set +e: false no longer ends the script.
set -e
set +e
false
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
