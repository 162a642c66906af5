#!/bin/bash
# sudo -E -- CMD (stub after sudoers(5)): -- ends sudo's options; -E keeps the exports.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
sudo -E -- torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 2
