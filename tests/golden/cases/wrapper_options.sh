#!/bin/bash
# Wrappers whose options take a value in the next word: the launch is still found.
export OFFLINE_PACKED_DATA=1
numactl -N 0 -m 0 torchrun aiak_training_llm/train.py --micro-batch-size 1
timeout -s INT 72h torchrun aiak_training_llm/train.py --micro-batch-size 1
stdbuf -o L nice -n 10 torchrun aiak_training_llm/train.py --micro-batch-size 1
