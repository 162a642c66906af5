#!/bin/bash
# A prefix assignment reaches only its own command, not the launch after it.
OFFLINE_PACKED_DATA=1 python tools/check_packed_shards.py --data-path /mnt/data/packed

export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
