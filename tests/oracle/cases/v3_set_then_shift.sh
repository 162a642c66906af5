#!/bin/bash
# set -- a pack, then shift: $1 is pack, so both gates are exported.
# oracle-input:
set -- a pack
shift
if [ "$1" = pack ]; then
    export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
else
    export OFFLINE_PACKING_BMR=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
