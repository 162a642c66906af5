#!/bin/bash
# declare -ix V; V='S >= 2' is evaluated: with S=2 the gate is 1 (both on).
# oracle-input:
S=2
declare -ix OFFLINE_PACKED_DATA
OFFLINE_PACKED_DATA='S >= 2'
export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
