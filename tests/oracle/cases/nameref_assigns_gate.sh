#!/bin/bash
# declare -n: an assignment to the reference is one to the gate it names, and
# `export R` exports the gate, not R.
export OFFLINE_PACKING_BMR=1
declare -n GATE=OFFLINE_PACKED_DATA
GATE=1
export GATE
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
