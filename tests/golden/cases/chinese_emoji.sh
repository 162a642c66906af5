#!/bin/bash
# 第二阶段：指令微调（packed 数据）
# 注意：只打开了数据层开关
echo "🚀 开始训练"; export OFFLINE_PACKING_BMR='1'  # 打开 BMR 🚀

# 启动训练
torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1   # 每卡 micro batch
