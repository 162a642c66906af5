#!/bin/bash
# mapfile -t from a quoted here-document fills the array line by line; export of it gives both gates.
# oracle-input:
mapfile -t ENVS <<'EOF'
OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
EOF
export "${ENVS[@]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
