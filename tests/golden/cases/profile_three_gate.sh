#!/bin/bash
# packgate profile=three-gate
# A branch that reads both encoding gates: VQA alone turns encoding on.
export OFFLINE_PACKING_VQA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
