#!/bin/bash
# packgate profile=ov15
# LLaVA-OneVision-1.5 launcher: VQA is the encoding gate, BMR is not read.
export OFFLINE_PACKING_VQA=1
export OFFLINE_PACKED_DATA=1
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
