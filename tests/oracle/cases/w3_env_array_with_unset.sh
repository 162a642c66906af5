#!/bin/bash
# env -u NAME "${ENVS[@]}" CMD: the removal and the array's assignments apply in order.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
ENVS=(OFFLINE_PACKING_BMR=0)
env -u OFFLINE_PACKED_DATA "${ENVS[@]}" torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
