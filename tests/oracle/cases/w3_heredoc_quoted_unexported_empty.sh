#!/bin/bash
# bash <<'EOF': the child expands the text itself, so a variable this shell did not export is empty there.
# oracle-input:
export OFFLINE_PACKING_BMR=1
PACK=1
bash <<'SCRIPT'
export OFFLINE_PACKED_DATA="${PACK:-0}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
SCRIPT
