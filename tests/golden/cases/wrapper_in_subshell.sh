#!/bin/bash
# A wrapped launch in a subshell, with the gates exported inside it.
(
    export OFFLINE_PACKING_BMR=1
    export OFFLINE_PACKED_DATA=1
    taskset -c 0-31 torchrun aiak_training_llm/train.py --micro-batch-size 2
)
