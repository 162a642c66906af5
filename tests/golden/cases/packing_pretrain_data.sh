#!/bin/bash
# Online pretrain packing makes cu_lengths real but does not force the size.
torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --packing-pretrain-data \
    --micro-batch-size 2 \
    --seq-length 8192
