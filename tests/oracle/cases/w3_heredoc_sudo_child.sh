#!/bin/bash
# sudo bash <<'EOF' (sudo stub after sudoers(5) env_reset): the child shell starts from the reset environment; sudo -E keeps the exports.
# oracle-input:
# oracle-input: KEEP=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$KEEP" ]; then
    sudo -E bash <<'SCRIPT'
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
SCRIPT
else
    sudo bash <<'SCRIPT'
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
SCRIPT
fi
