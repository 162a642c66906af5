#!/bin/bash
# Heredoc bodies are data written to a file, not commands of this shell.
cat > /tmp/packing.env <<ENV
export OFFLINE_PACKED_DATA=1
ENV
cat <<'NOTE'
OFFLINE_PACKED_DATA=1 must be set as well
NOTE
export OFFLINE_PACKING_BMR=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
