#!/bin/bash
# export $(grep -v '^#' .env | xargs) exports the file's NAME=value lines: what the gates are comes from .env, which packgate cannot read.
# oracle-input:
# oracle-input: +empty.env ENVFILE=empty.env
export OFFLINE_PACKING_BMR=1
export $(grep -v '^#' "${ENVFILE:-.env}" | xargs)
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
