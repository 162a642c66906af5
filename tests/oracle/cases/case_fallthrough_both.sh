#!/bin/bash
# case ;& from the first arm: both gates together.
# oracle-input:
# oracle-input: -- other
# oracle-input: -- batch
case "${1:-all}" in
    all)
        export OFFLINE_PACKING_BMR=1
        ;&
    batch)
        export OFFLINE_PACKED_DATA=1
        ;;
    *)
        exit 1
        ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
