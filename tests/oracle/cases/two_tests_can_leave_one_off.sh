#!/bin/bash
# Two independent tests: one gate can really be on alone (PG007).
# oracle-input:
# oracle-input: PACK=1
# oracle-input: BATCH=1
# oracle-input: PACK=1 BATCH=1
[[ -n "$PACK" ]] && export OFFLINE_PACKING_BMR=1
[[ -n "$BATCH" ]] && export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
