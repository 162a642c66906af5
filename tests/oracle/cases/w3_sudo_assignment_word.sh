#!/bin/bash
# sudo NAME=value CMD (stub after sudoers(5) env_reset): the environment is reset, then NAME=value is set for CMD.
# oracle-input:
# oracle-input: BOTH=1
export OFFLINE_PACKING_BMR=1
if [ -n "$BOTH" ]; then
    sudo OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    sudo OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
