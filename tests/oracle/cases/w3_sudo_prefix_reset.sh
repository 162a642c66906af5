#!/bin/bash
# NAME=value sudo CMD (stub after sudoers(5) env_reset): the prefix reaches sudo, whose reset drops it unless --preserve-env names it.
# oracle-input:
# oracle-input: KEEP=1
export OFFLINE_PACKING_BMR=1
if [ -n "$KEEP" ]; then
    OFFLINE_PACKED_DATA=1 sudo --preserve-env=OFFLINE_PACKED_DATA,OFFLINE_PACKING_BMR torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    OFFLINE_PACKED_DATA=1 sudo torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
