#!/bin/bash
# Stage switch: stage 1 unpacked, stage 2 packed, anything else forgets the batch gate.
STAGE=${1:-2}

if [[ "$STAGE" == 1 ]]; then
    export OFFLINE_PACKING_BMR=0
    export OFFLINE_PACKED_DATA=0
elif [[ "$STAGE" == 2 ]]; then
    export OFFLINE_PACKING_BMR=1
    export OFFLINE_PACKED_DATA=1
else
    export OFFLINE_PACKING_BMR=1
fi

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
