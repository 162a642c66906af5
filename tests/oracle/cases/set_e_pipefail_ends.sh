#!/bin/bash
# set -eo pipefail: false | true fails, so the script ends before the launch.
set -eo pipefail
export OFFLINE_PACKING_BMR=1
false | true
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
