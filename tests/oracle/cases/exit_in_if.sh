#!/bin/bash
# exit in an if: the surviving path exports both gates.
# oracle-input:
# oracle-input: PACK=1
if [ -z "$PACK" ]; then
    echo "unpacked runs are not launched from here"
    exit 0
fi
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
