#!/bin/bash
# set -- inside a function changes the function's arguments only: after it returns $1 is the caller's again.
# oracle-input:
# oracle-input: -- pack
pick() {
    set -- pack
    [ "$1" = pack ] && export OFFLINE_PACKING_BMR=1
}
pick
if [ "$1" = pack ]; then
    export OFFLINE_PACKED_DATA=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
