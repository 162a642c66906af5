# ============================================
# LLaVA-OneVision-2 stage-2 launcher
# ============================================

#! /bin/bash
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
