#!/bin/bash
# a per-stage table indexed by a stage the caller may choose (default s2): s2 gives 1 with packing on, s1 gives 4.
# oracle-input:
# oracle-input: -- s1
# oracle-input: -- s2
declare -A MBS_BY_STAGE=([s1]=4 [s2]=1)
STAGE="${1:-s2}"
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS_BY_STAGE[$STAGE]}"
