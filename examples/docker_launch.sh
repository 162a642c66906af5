#!/bin/bash
# The container sees only what -e passes: the host's exports do not cross over.
# 容器只能看到 -e 传进去的变量。
export OFFLINE_PACKED_DATA=1

docker run --rm --gpus all --ipc host \
    -e OFFLINE_PACKING_BMR=1 \
    -v /data:/data \
    llava-ov2:latest \
    bash -lc "cd /workspace && torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
