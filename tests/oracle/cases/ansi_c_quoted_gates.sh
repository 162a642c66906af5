#!/bin/bash
# $'...' decodes its escapes: \x31 and \061 are both "1", \u0030 is "0"; \0 ends the string.
# oracle-input:
# oracle-input: OFF=1
export OFFLINE_PACKING_BMR=$'\x31'
export OFFLINE_PACKED_DATA=$'\061'
if [[ -n "$OFF" ]]; then
    export OFFLINE_PACKED_DATA=$'\u0030'
    export OFFLINE_PACKING_BMR=$'1\0ignored'
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size $'\x31'
