#!/bin/bash
# exec env -i: the same for exec.
export OFFLINE_PACKING_BMR=1
exec env -i PATH="$PATH" OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
