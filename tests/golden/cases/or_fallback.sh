#!/bin/bash
# || runs its right side only when the left side fails: pretrain runs skip the batch gate.
STAGE=${1:-sft}
export OFFLINE_PACKING_BMR=1
[[ "$STAGE" == pretrain ]] || export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
