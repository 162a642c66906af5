#!/bin/bash
# The launcher comes from a variable that defaults to torchrun.
TORCHRUN=${TORCHRUN:-torchrun}
export OFFLINE_PACKING_BMR=1

"$TORCHRUN" --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
