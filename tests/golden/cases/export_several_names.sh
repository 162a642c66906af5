#!/bin/bash
# export A B C of several names; the batch gate is missing from the list.
OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
NCCL_DEBUG=WARN
CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_DEBUG OFFLINE_PACKING_BMR CUDA_DEVICE_MAX_CONNECTIONS

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
