#!/bin/bash
# printf -v NAME sets NAME and keeps its export mark; a default's text stays the caller's to change.
# oracle-input:
# oracle-input: MBS=2
export OFFLINE_PACKING_BMR
printf -v OFFLINE_PACKING_BMR '%s' 1
OFFLINE_PACKED_DATA=0
export OFFLINE_PACKED_DATA
printf -v OFFLINE_PACKED_DATA '%d%s' 1
printf -v BATCH '%s' "${MBS:-1}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "$BATCH"
