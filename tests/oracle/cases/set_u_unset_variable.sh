#!/bin/bash
# set -u: a variable the script never sets ends it before the launch, unless the caller sets it.
# oracle-input:
# oracle-input: DATA_ROOT_NEVER_SET=/data
set -u
export OFFLINE_PACKING_BMR=1
echo "data in $DATA_ROOT_NEVER_SET"
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
