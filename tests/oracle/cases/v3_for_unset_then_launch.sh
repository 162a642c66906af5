#!/bin/bash
# each pass launches with its own state: pass 1 both on, pass 2 after unsetting both, neither.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
for stage in packed plain; do
    if [ "$stage" = plain ]; then
        unset OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA
    fi
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
done
