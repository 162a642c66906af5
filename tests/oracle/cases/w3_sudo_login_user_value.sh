#!/bin/bash
# sudo -u root -- env NAME=value CMD (stub after sudoers(5) env_reset): the reset drops the exports, env sets what CMD gets.
# oracle-input:
# oracle-input: MBS=2
export OFFLINE_PACKED_DATA=1
sudo -u root -- env OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS:-1}"
