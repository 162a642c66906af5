#!/bin/bash
# [ $STAGE = sft ] || exit, then [ $STAGE != sft ] never holds.
# oracle-input:
# oracle-input: STAGE=sft
# oracle-input: STAGE=pretrain
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
[ "$STAGE" = sft ] || exit 1
[ "$STAGE" != sft ] && unset OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
