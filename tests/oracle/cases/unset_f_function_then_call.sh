#!/bin/bash
# After unset -f the function is gone: calling it exports nothing.
enable_packing() {
    export OFFLINE_PACKING_BMR=1
    export OFFLINE_PACKED_DATA=1
}
unset -f enable_packing
enable_packing 2>/dev/null
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
