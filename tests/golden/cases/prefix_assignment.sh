#!/bin/bash
# Prefix assignments are exported to the launch they precede.
AIAK_TRAINING_PATH=/workspace/LLaVA-OneVision-2
export OFFLINE_PACKED_DATA=1

OFFLINE_PACKING_BMR=1 \
PYTHONPATH="$AIAK_TRAINING_PATH:$AIAK_TRAINING_PATH/Megatron-LM" \
torchrun --nproc_per_node 8 "$AIAK_TRAINING_PATH/aiak_training_llm/train.py" \
    --micro-batch-size 1
