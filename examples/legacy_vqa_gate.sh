#!/bin/bash
# Copied from an LLaVA-OneVision-1.5 recipe: VQA was the encoding gate there.
# 从 1.5 的脚本拷过来的：OFFLINE_PACKING_VQA 在 OV2 里已经没人读了。
export OFFLINE_PACKING_VQA=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1 \
    --packing-buffer-size 100
