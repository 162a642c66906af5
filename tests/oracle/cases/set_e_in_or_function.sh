#!/bin/bash
# set -e is suspended in a function called left of ||: its false goes on.
set -e
setup() { false; export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1; }
setup || true
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
