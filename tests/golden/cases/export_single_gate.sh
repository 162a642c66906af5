#!/bin/bash
# Stage-2 SFT on offline-packed samples: only the encoding gate is exported.
AIAK_TRAINING_PATH=/workspace/LLaVA-OneVision-2
DATA_PATH=/mnt/data/llava_ov2/stage2_packed

export OFFLINE_PACKING_BMR='1'

torchrun --nproc_per_node 8 --nnodes 1 \
    "$AIAK_TRAINING_PATH/aiak_training_llm/train.py" \
    --data-path "$DATA_PATH" \
    --micro-batch-size 1 \
    --global-batch-size 256
