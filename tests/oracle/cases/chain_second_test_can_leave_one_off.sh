#!/bin/bash
# a && export && b && export: the second test can leave the batch gate off (PG007).
# oracle-input:
# oracle-input: A=1
# oracle-input: A=1 B=1
# oracle-input: B=1
[[ -n "$A" ]] && export OFFLINE_PACKING_BMR=1 && [[ -n "$B" ]] && export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
