#!/bin/bash
# Everything between set -a and set +a is exported; what follows is not.
set -a
OFFLINE_PACKING_BMR=1
MASTER_PORT=29500
set +a
OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 --master_port "$MASTER_PORT" aiak_training_llm/train.py \
    --micro-batch-size 1
