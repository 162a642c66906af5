#!/bin/bash
# source runs the env file in this shell: its export of the batch gate reaches the launch.
export OFFLINE_PACKING_BMR=1
source ./env/packing.env

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
