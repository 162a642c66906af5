#!/bin/bash
# an unquoted here-document expands $ON: the lines are BMR=1 and PACKED_DATA=1.
# oracle-input:
ON=1
mapfile -t ENVS <<EOF
OFFLINE_PACKING_BMR=$ON
OFFLINE_PACKED_DATA=${ON}
EOF
export "${ENVS[@]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
