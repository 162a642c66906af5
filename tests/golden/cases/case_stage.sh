#!/bin/bash
# case per data format; the default branch leaves packing off.
FORMAT=${DATA_FORMAT:-packed}

case "$FORMAT" in
    packed)
        export OFFLINE_PACKING_BMR=1
        export OFFLINE_PACKED_DATA=1
        ;;
    packed-legacy)
        export OFFLINE_PACKED_DATA=1
        ;;
    *)
        echo "unpacked data"
        ;;
esac

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
