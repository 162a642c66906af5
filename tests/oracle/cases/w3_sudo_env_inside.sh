#!/bin/bash
# sudo env NAME=value CMD (stub after sudoers(5) env_reset): env runs in the reset environment and adds its assignments.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
sudo env OFFLINE_PACKED_DATA=1 OFFLINE_PACKING_BMR=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
