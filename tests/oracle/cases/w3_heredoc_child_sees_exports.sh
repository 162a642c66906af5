#!/bin/bash
# bash <<'EOF' runs the here-document in a child shell that sees only what this shell exported: a gate assigned without export is unset there.
# oracle-input:
# oracle-input: EXPORT=1
export OFFLINE_PACKING_BMR=1
OFFLINE_PACKED_DATA=1
[ -n "$EXPORT" ] && export OFFLINE_PACKED_DATA
bash <<'SCRIPT'
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
SCRIPT
