#!/bin/bash
# xargs -I{} sh -c '...': the child shell keeps the exports, and the launch runs inside it.
# oracle-input:
# oracle-input: PACKED=1
export OFFLINE_PACKING_BMR=1
[ -n "$PACKED" ] && export OFFLINE_PACKED_DATA=1
echo 1 | xargs -I{} sh -c 'torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1'
