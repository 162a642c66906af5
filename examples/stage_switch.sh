#!/usr/bin/env bash
# One launcher for several stages: the packing gates depend on the first argument.
STAGE="${1:-stage1}"

case "$STAGE" in
    stage1)
        export OFFLINE_PACKING_BMR=1
        export OFFLINE_PACKED_DATA=1
        ;;
    stage2)
        # 第二阶段忘了 PACKED_DATA
        export OFFLINE_PACKING_BMR=1
        ;;
    *)
        echo "unknown stage: $STAGE" >&2
        exit 1
        ;;
esac

torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
