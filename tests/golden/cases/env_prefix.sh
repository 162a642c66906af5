#!/bin/bash
# env NAME=value passes the value to the command it runs.
env OFFLINE_PACKING_BMR=1 NCCL_DEBUG=WARN \
    torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
