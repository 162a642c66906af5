#!/bin/bash
# return at the top of a sourced file ends only that file.
source ./lib/packing.sh
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
