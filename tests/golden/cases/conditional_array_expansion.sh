#!/bin/bash
# ${IMG_ARGS:+${IMG_ARGS[@]}} expands the array only when it is set.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
IMG_ARGS=(--image-size 448 --max-num-tiles 12)

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    ${IMG_ARGS:+${IMG_ARGS[@]}} \
    --micro-batch-size 1
