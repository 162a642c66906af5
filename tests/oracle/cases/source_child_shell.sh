#!/bin/bash
# a `bash -c` string in a sourced file: the child shell's script is that file's text; its export stays in the child.
# oracle-input:
# oracle-input: PACKED=1
source ./lib/stage.sh
if [ -n "$PACKED" ]; then
    export OFFLINE_PACKED_DATA=1
fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
