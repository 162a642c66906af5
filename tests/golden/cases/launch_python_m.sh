#!/bin/bash
# python -m torch.distributed.run is torchrun.
export OFFLINE_PACKED_DATA=1

python -m torch.distributed.run --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
