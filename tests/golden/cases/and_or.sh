#!/bin/bash
# && only runs its right side when the test succeeds.
DATA_PATH=${DATA_PATH:-/mnt/data/packed}
export OFFLINE_PACKED_DATA=1
[[ -f "$DATA_PATH/.packed" ]] && export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --data-path "$DATA_PATH" \
    --micro-batch-size 1
