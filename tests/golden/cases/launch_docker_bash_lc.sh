#!/bin/bash
# Both gates cross into the container; the micro-batch size inside is 4.
docker run --rm --gpus all --ipc host \
    -e OFFLINE_PACKING_BMR=1 \
    -e OFFLINE_PACKED_DATA=1 \
    llava-ov2:latest \
    bash -lc "cd /workspace && torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 4"
