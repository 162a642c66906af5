#!/bin/bash
# bash -c inherits the exports of this shell, so the launch inside sees BMR only.
export OFFLINE_PACKING_BMR=1

bash -c "cd /workspace/LLaVA-OneVision-2 && torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
