#!/bin/bash
# sudo (a stub following sudoers(5)'s default env_reset) gives its command a fresh environment: the exported gates do not reach it; sudo -E keeps them.
# oracle-input:
# oracle-input: KEEP=1
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
if [ -n "$KEEP" ]; then
    sudo -E torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    sudo torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
