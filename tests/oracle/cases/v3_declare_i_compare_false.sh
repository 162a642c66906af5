#!/bin/bash
# declare -ix V; V='S >= 2' with S=1 is 0: BMR on alone (a leak).
# oracle-input:
S=1
declare -ix OFFLINE_PACKED_DATA
OFFLINE_PACKED_DATA='S >= 2'
export OFFLINE_PACKING_BMR=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
