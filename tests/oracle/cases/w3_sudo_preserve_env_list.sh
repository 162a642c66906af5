#!/bin/bash
# sudo --preserve-env=A,B (stub after sudoers(5) env_reset): only the listed names pass; listing one gate of two leaves the other behind.
# oracle-input:
# oracle-input: BOTH=1
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
if [ -n "$BOTH" ]; then
    sudo --preserve-env=OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    sudo --preserve-env=OFFLINE_PACKING_BMR torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
