#!/bin/bash
# Single-process debug run: python straight on the entry point.
export OFFLINE_PACKING_BMR=1

python /workspace/LLaVA-OneVision-2/aiak_training_llm/train.py \
    --micro-batch-size 1
