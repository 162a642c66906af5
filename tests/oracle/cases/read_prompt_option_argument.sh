#!/bin/bash
# `read -p PROMPT NAME`: the prompt is the option's argument, not a name read into.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
read -r -p OFFLINE_PACKED_DATA REPLY <<< "0"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
