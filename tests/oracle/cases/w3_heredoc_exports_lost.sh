#!/bin/bash
# bash <<'EOF' that only exports: the child's exports end with it, so the launch after it does not see them.
export OFFLINE_PACKING_BMR=1
bash <<'SCRIPT'
export OFFLINE_PACKED_DATA=1
SCRIPT
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
