#!/bin/bash
# Under set -u a gate from a variable the script never sets: bash stops at the expansion when the
# caller leaves it unset, so no launch ever sees the empty value (no information about int('')).
# oracle-input:
# oracle-input: SOME_VAR=1
# oracle-input: SOME_VAR=0
set -euo pipefail
export OFFLINE_PACKING_BMR="${SOME_VAR}"
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
