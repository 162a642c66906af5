#!/bin/bash
# --env-file may set anything: the script cannot know the batch gate inside the container.
docker run --rm --gpus all \
    --env-file ./packing.env \
    -e OFFLINE_PACKING_BMR=1 \
    llava-ov2:latest \
    bash -lc "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
