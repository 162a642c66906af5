#!/bin/bash
# local of an exported gate inside a function keeps the export attribute: the launch inside sees 0.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
run() {
    local OFFLINE_PACKED_DATA=0
    torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
}
run
