#!/bin/bash
# ". FILE" is source; here the env file sets the batch gate, the script forgets the encoding gate.
. "$(dirname "$0")/env/packing.env"

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
