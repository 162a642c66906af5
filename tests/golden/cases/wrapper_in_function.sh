#!/bin/bash
# The launch is wrapped (numactl pins the NUMA node) inside a function: still the launch.
export OFFLINE_PACKING_BMR=1
MBS=4

run() {
    numactl --cpunodebind=0 torchrun --nproc_per_node 8 aiak_training_llm/train.py \
        --micro-batch-size "$MBS"
}

run
