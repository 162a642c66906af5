#!/bin/bash
# case ;& also runs the next arm's body.
# oracle-input:
# oracle-input: -- full
# oracle-input: -- batch
case "$1" in
    full)
        export OFFLINE_PACKING_BMR=1
        ;&
    batch)
        export OFFLINE_PACKED_DATA=1
        ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
