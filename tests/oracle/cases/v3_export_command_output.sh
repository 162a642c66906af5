#!/bin/bash
# export $(cat FILE) exports the NAME=value words the file holds: what they name is the file's, unknown to packgate (no error claim).
# oracle-input:
# oracle-input: ENVFILE=/dev/null
export OFFLINE_PACKING_BMR=1
export $(cat "${ENVFILE:-pack.env}")
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
