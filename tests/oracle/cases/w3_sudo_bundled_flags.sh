#!/bin/bash
# sudo -HEu root CMD (stub after sudoers(5)): bundled letters, E keeps the environment and u takes the next word.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
sudo -HEu root torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
