#!/bin/bash
# sudo -u USER -E CMD (stub after sudoers(5)): -u takes a value, -E keeps the environment, the command is what follows.
# oracle-input:
# oracle-input: MBS=2
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
sudo -u root -g root -E torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS:-1}"
