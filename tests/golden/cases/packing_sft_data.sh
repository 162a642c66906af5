#!/bin/bash
# Online SFT packing forwards cu_lengths itself and forces the micro-batch size to 1.
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --packing-sft-data \
    --micro-batch-size 4 \
    --seq-length 16384
