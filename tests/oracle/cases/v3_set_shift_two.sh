#!/bin/bash
# set -- a b pack, then shift 2: $1 is pack, both gates on; with shift 1 it would be b.
# oracle-input:
# oracle-input: N=1
set -- a b pack
shift ${N:-2}
if [ "$1" = pack ]; then
    export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
else
    export OFFLINE_PACKING_BMR=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
