#!/bin/bash
# a function whose body runs bash <<'EOF': the child sees what is exported where the function is called.
# oracle-input:
# oracle-input: PACKED=1
train() {
    bash <<'SCRIPT'
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
SCRIPT
}
export OFFLINE_PACKING_BMR=1
[ -n "$PACKED" ] && export OFFLINE_PACKED_DATA=1
train
