#!/bin/bash
# while IFS== read -r k v; do command export "$k=$v"; done < pack.conf exports the file's names: unknown to packgate (PG009), so no error on the gates.
# oracle-input:
# oracle-input: CONF=none.conf
export OFFLINE_PACKING_BMR=1
while IFS== read -r k v; do command export "$k=$v"; done < "${CONF:-pack.conf}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
