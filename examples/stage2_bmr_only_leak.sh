#! /bin/bash
# Stage-2 instruction tuning on offline-packed samples.
# 注意：这里只打开了 BMR（数据层），batch 层的 OFFLINE_PACKED_DATA 没开 —— 训练能跑，loss 也正常，
# 但 packed 子样本之间会互相 attend。

AIAK_TRAINING_PATH=/workspace/LLaVA-OneVision-2
MBS="${4:-1}"

export OFFLINE_PACKING_BMR=1

TRAINING_ARGS=(
    --micro-batch-size "${MBS}"
    --global-batch-size 512
    --seq-length 16384
)

PYTHONPATH="$AIAK_TRAINING_PATH" \
torchrun --nproc_per_node 8 "$AIAK_TRAINING_PATH/aiak_training_llm/train.py" "${TRAINING_ARGS[@]}"
