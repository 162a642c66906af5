#!/bin/bash
# mapfile without -t keeps each line's newline: the gate is "1\n", which int() still reads as 1.
mapfile GATES <<'EOF2'
1
1
EOF2
export OFFLINE_PACKING_BMR="${GATES[0]}" OFFLINE_PACKED_DATA="${GATES[1]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
