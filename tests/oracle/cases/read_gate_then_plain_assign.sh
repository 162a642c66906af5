#!/bin/bash
# Reading the caller's gate does not export a later plain assignment to it: bash exports it
# only when the caller had (no input here sets a gate), as for a gate never read. After
# `export NAME` it is the script's own export.
# oracle-input:
# oracle-input: IN=1
N=OFFLINE_PACKED_DATA
g() { local OFFLINE_PACKED_DATA=${!N}; }
g
echo "packed data: ${OFFLINE_PACKED_DATA:-unset}"
OFFLINE_PACKED_DATA=${IN:-1}
echo "${OFFLINE_PACKING_BMR}"
for OFFLINE_PACKING_BMR in 1; do :; done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
echo "$OFFLINE_PACKING_VQA"
export OFFLINE_PACKING_VQA
OFFLINE_PACKING_VQA=1
export OFFLINE_PACKING_BMR
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
