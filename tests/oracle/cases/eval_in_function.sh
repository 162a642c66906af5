#!/bin/bash
# eval of a literal string inside a function runs in this shell.
setup() { eval 'export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1'; }
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
