#!/bin/bash
# pass 2 unsets only PACKED_DATA: its launch gets BMR alone (a leak), pass 1's both.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
for stage in packed plain; do
    if [ "$stage" = plain ]; then
        unset OFFLINE_PACKED_DATA
    fi
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
done
