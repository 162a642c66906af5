#!/bin/bash
# -e NAME passes the docker client's environment: shell variables that were never exported
# do not reach the container.
OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1

docker run --rm --gpus all \
    -e OFFLINE_PACKING_BMR \
    -e OFFLINE_PACKED_DATA \
    llava-ov2:latest \
    bash -lc "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
