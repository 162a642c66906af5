#!/bin/bash
# Stage 1 runs unpacked; the documentation's setup line is pasted before the packed stage 2.
torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --data-path /mnt/data/stage1 \
    --micro-batch-size 4

export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --data-path /mnt/data/stage2_packed \
    --micro-batch-size 1
