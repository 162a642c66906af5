#!/bin/bash
# [ $S != sft ] && exit, then [ $S = sft ] always holds.
# oracle-input: S=sft
# oracle-input: S=dpo
# oracle-input:
[ "$S" != sft ] && exit 1
export OFFLINE_PACKED_DATA=1
[ "$S" = sft ] && export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
