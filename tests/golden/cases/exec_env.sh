#!/bin/bash
# exec env ...: both gates reach the trainer, so the micro-batch size must be 1.
MBS=2
exec env OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 \
    torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size "$MBS"
