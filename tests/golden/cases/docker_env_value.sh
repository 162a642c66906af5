#!/bin/bash
# The container sees only what -e sets: the host export of OFFLINE_PACKED_DATA stays outside.
export OFFLINE_PACKED_DATA=1

docker run --rm --gpus all --ipc host \
    -e OFFLINE_PACKING_BMR=1 \
    -v /mnt/data:/mnt/data \
    llava-ov2:latest \
    bash -lc "cd /workspace/LLaVA-OneVision-2 && torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
