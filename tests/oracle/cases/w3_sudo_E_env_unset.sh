#!/bin/bash
# sudo -E env -u NAME CMD (sudo stub after sudoers(5)): -E keeps the exports, then env removes one of them.
# oracle-input:
# oracle-input: KEEP=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$KEEP" ]; then
    timeout 100 sudo -E torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    timeout 100 sudo -E env -u OFFLINE_PACKED_DATA torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
