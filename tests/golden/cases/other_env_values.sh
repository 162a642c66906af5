#!/bin/bash
# Other variables the training code parses (FACTS §4).
export TE_EXTRA_STATE_MISSING_CHECK=yes
export SCATTER_BEFORE_PATCH_EMBED=true
export PATCH_EMBED_TYPE=tp_linear
export MEGATRON_LOGGING_LEVEL=INFO

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
