#!/bin/bash
# 二阶段：packed 数据，每卡 micro batch 必须为 1
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
TRAINING_ARGS=( --wandb-exp-name "二阶段🚀" --micro-batch-size 2 )

torchrun --nproc_per_node 8 aiak_training_llm/train.py "${TRAINING_ARGS[@]}"
