#!/bin/bash
# under set -e, (( N )) with N=0 returns 1 and ends the script before PACKED_DATA is turned off.
# oracle-input:
# oracle-input: N=1
set -e
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
N=${N:-0}
(( N ))
export OFFLINE_PACKED_DATA=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
