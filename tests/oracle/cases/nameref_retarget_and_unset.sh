#!/bin/bash
# Redeclaring a reference points it elsewhere; `unset R` unsets the gate it names,
# `unset -n R` only the reference; a reference declared without a target gets one
# from its first assignment.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
declare -n R=OFFLINE_PACKING_VQA
declare -n R=OFFLINE_PACKED_DATA
unset R
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
declare -n S
S=OFFLINE_PACKED_DATA
S=1
export S
unset -n S
S=0
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${S}"
