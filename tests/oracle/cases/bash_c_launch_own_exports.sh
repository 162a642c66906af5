#!/bin/bash
# A launch inside bash -c sees the parent's exports and its own.
export OFFLINE_PACKING_BMR=1
bash -c 'export OFFLINE_PACKED_DATA=1; torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1'
