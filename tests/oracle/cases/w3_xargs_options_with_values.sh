#!/bin/bash
# xargs -n 1 -P 2 -d ',' CMD: the options with values come before the command, which sees the exports.
export OFFLINE_PACKING_BMR=1
printf '1' | xargs -n 1 -P 2 -d , torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size
