#!/bin/bash
# eval of a literal in an && list.
# oracle-input:
# oracle-input: PACK=1
[[ -n "$PACK" ]] && eval "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
