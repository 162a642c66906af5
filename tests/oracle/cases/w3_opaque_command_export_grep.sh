#!/bin/bash
# command export $(grep -v '^#' .env | xargs): the names come from the file's lines (PG009, the gates unknown after it).
# oracle-input:
# oracle-input: +empty.env ENVFILE=empty.env
export OFFLINE_PACKING_BMR=1
command export $(grep -v '^#' "${ENVFILE:-.env}" | xargs)
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
