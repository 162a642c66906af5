#!/bin/bash
# export / declare / local / readonly with several assignments: every value is expanded before
# any is assigned (a plain `A=1 B=$A` assigns in order).
# oracle-input:
# oracle-input: IN=1
N=OFFLINE_PACKING_BMR
export OFFLINE_PACKING_BMR=${IN:-0} OFFLINE_PACKED_DATA=${!N}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
f() {
    local OFFLINE_PACKED_DATA=1 OFFLINE_PACKING_BMR=$OFFLINE_PACKED_DATA
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
}
f
declare -x OFFLINE_PACKED_DATA=0 OFFLINE_PACKING_VQA="$(echo x)$OFFLINE_PACKED_DATA"
V=1 W=$V
export OFFLINE_PACKING_BMR=$W
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
readonly R=1 OFFLINE_PACKED_DATA=$R
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
