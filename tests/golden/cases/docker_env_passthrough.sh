#!/bin/bash
# -e NAME (no value) passes the host's exported value through; only BMR is passed.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

docker run --rm --gpus all --shm-size 64g \
    -e OFFLINE_PACKING_BMR \
    -e NCCL_DEBUG=WARN \
    llava-ov2:latest \
    bash -lc "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
