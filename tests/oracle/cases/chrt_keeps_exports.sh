#!/bin/bash
# chrt runs its command at a scheduling policy and priority with this shell's exported environment: the launch sees the exports.
# oracle-input:
# oracle-input: PACKED=1
export OFFLINE_PACKING_BMR=1
if [ -n "$PACKED" ]; then
    export OFFLINE_PACKED_DATA=1
fi
chrt --other 0 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
