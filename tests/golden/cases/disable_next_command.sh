#!/bin/bash
set -euo pipefail
# A/B control run: encoding gate only, to measure cross-sample leakage.
# packgate disable=missing-companion
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKING_VQA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
