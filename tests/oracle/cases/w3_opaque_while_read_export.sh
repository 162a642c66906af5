#!/bin/bash
# while IFS== read -r k v; do export "$k=$v"; done < pack.conf exports the file's names: the gates come from the file, which packgate cannot read.
# oracle-input:
# oracle-input: CONF=none.conf
export OFFLINE_PACKING_BMR=1
while IFS== read -r k v; do export "$k=$v"; done < "${CONF:-pack.conf}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
