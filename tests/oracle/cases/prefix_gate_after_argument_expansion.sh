#!/bin/bash
# A prefix gate reaches the launch's environment, while an argument naming the prefix's
# variable still expands to the shell's value: the flag gets 2, not 1.
# oracle-input:
export OFFLINE_PACKING_BMR=1
SIZE=2
SIZE=1 OFFLINE_PACKED_DATA=1 torchrun aiak_training_llm/train.py --micro-batch-size "$SIZE"
