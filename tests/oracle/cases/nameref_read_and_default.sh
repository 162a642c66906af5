#!/bin/bash
# Reading through a reference reads the gate it names, operators included.
export OFFLINE_PACKING_BMR=1
declare -n BMR=OFFLINE_PACKING_BMR
declare -n PACKED=OFFLINE_PACKED_DATA
export OFFLINE_PACKED_DATA="$BMR"
MBS=${PACKED:+1}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS:-4}"
