#!/bin/bash
# if [ -z $PACK ]; then exit; fi, then [ -n $PACK ] && export: known to run.
# oracle-input:
# oracle-input: PACK=1
if [ -z "$PACK" ]; then
    exit 0
fi
[ -n "$PACK" ] && export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
