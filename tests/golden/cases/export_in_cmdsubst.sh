#!/bin/bash
# An export inside $( ... ) happens in a child process.
export OFFLINE_PACKING_BMR=1
RUN_ID=$(export OFFLINE_PACKED_DATA=1; date +%Y%m%d_%H%M%S)

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1 \
    --wandb-exp-name "ov2_${RUN_ID}"
