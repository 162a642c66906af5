#!/bin/bash
# a && b || c && d: each step follows the status of the list so far.
# oracle-input:
# oracle-input: -- packed
[[ "$1" == packed ]] && export OFFLINE_PACKING_BMR=1 || export OFFLINE_PACKING_BMR=0 && export OFFLINE_PACKED_DATA="${OFFLINE_PACKING_BMR}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
