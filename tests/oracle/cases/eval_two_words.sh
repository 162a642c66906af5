#!/bin/bash
# eval joins its words: export and the assignment are two words.
eval export OFFLINE_PACKING_BMR=1
eval export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
