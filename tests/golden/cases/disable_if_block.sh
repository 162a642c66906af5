#!/bin/bash
set -euo pipefail
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

# packgate disable=dead-var
if [[ "${LEGACY_RECIPE:-0}" == 1 ]]; then
    export OFFLINE_PACKING_VQA=1
fi
export OFFLINE_PACKING_VQA=0

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
