#!/bin/bash
# a body that never runs launches nothing; the launch after it sees the gates.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
while false; do torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1; done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
