#!/bin/bash
# eval of a caller's string: the gates are unknown after it, no error claims.
# oracle-input:
# oracle-input: EXTRA_ENV='export OFFLINE_PACKED_DATA=1'
# oracle-input: EXTRA_ENV='unset OFFLINE_PACKING_BMR'
export OFFLINE_PACKING_BMR=1
eval "$EXTRA_ENV"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
