#!/bin/bash
# return unless PACK is set: one gate alone on one path (PG007).
# oracle-input:
# oracle-input: PACK=1
setup() {
    export OFFLINE_PACKING_BMR=1
    [ -n "$PACK" ] || return 0
    export OFFLINE_PACKED_DATA=1
}
setup
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
