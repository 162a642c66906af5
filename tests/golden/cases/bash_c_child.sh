#!/bin/bash
# bash -c runs in a child shell: the export is gone when it returns.
export OFFLINE_PACKING_BMR=1
bash -c "export OFFLINE_PACKED_DATA=1; echo packed batches on"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
