#!/bin/bash
# command export -n: the gate is no longer exported.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
command export -n OFFLINE_PACKED_DATA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
