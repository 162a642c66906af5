#!/bin/bash
# X changes after the test: the later test is decided by the new value.
# oracle-input: X=1
# oracle-input:
[ -n "$X" ] || exit 1
X=""
export OFFLINE_PACKED_DATA=1
[ -n "$X" ] && export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
