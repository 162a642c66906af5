# LLaVA-OneVision-2 第二阶段：指令微调，离线打包数据（Qwen3-8B 语言模型，SigLIP2 视觉塔）
# 用法: bash ov2_stage2_launcher.sh DATA_PATH TOKENIZER_PATH CHECKPOINT_PATH [MBS] [GBS]
#! /bin/bash
set -euo pipefail

# ---------------------------------------------------------------- 路径
AIAK_TRAINING_PATH="${AIAK_TRAINING_PATH:-/workspace/LLaVA-OneVision-2}"
AIAK_MEGATRON_PATH="${AIAK_MEGATRON_PATH:-${AIAK_TRAINING_PATH}/aiak_megatron}"
DATA_PATH="${1:-"/data/ov2/stage2/packed"}"
TOKENIZER_PATH="${2:-/models/Qwen3-8B}"
CHECKPOINT_PATH="${3:-/ckpt/ov2_stage2}"
LOAD_PATH="${LOAD_PATH:-${CHECKPOINT_PATH}/../ov2_stage1_5/release}"
TENSORBOARD_PATH="${TENSORBOARD_PATH:-${CHECKPOINT_PATH}/tensorboard}"
MBS="${4:-1}"
GBS="${5:-512}"
SEQ_LEN="${SEQ_LEN:-$(( 16 * 1024 ))}"
LOG_DIR="${LOG_DIR:-${CHECKPOINT_PATH}/logs}"
mkdir -p "${LOG_DIR}" "${TENSORBOARD_PATH}"
logfile="${LOG_DIR}/train_$(date +%Y%m%d_%H%M%S).log"

# ---------------------------------------------------------------- 集群
GPUS_PER_NODE="${GPUS_PER_NODE:-8}"
NNODES="${WORLD_SIZE:-1}"
NODE_RANK="${RANK:-0}"
MASTER_ADDR="${MASTER_ADDR:-127.0.0.1}"
MASTER_PORT="${MASTER_PORT:-29500}"

# NCCL 与 CUDA 环境
export CUDA_DEVICE_MAX_CONNECTIONS=1
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_IB_DISABLE=0
export NCCL_IB_GID_INDEX=3
export NCCL_SOCKET_IFNAME="${NCCL_SOCKET_IFNAME:-eth0}"
export NCCL_DEBUG="${NCCL_DEBUG:-WARN}"
export TORCH_NCCL_ASYNC_ERROR_HANDLING=1
export PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True"
export TOKENIZERS_PARALLELISM=false
export OMP_NUM_THREADS OOMP_ALLOW MKL_NUM_THREADS

# ---------------------------------------------------------------- 打包开关
# 两个开关必须同时打开：OFFLINE_PACKING_BMR=1 让数据层给出真实的 cu_lengths，
# OFFLINE_PACKED_DATA=1 让 batch 层把它们传给模型。只开一个会把样本拼在一起做注意力。
# export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKING_BMR='1'
export OFFLINE_PACKED_DATA="${OFFLINE_PACKED_DATA:-1}"
export OFFLINE_PACKING_DIR="${DATA_PATH}/packing_meta"

check_packing() {
    if [[ "${OFFLINE_PACKING_BMR}" != "${OFFLINE_PACKED_DATA}" ]]; then
        echo "打包开关不一致: BMR=${OFFLINE_PACKING_BMR} DATA=${OFFLINE_PACKED_DATA}" >&2
        return 1
    fi
    [[ -d "${OFFLINE_PACKING_DIR}" ]] || { echo "缺少打包元数据: ${OFFLINE_PACKING_DIR}" >&2; exit 1; }
}

# ---------------------------------------------------------------- 阶段
STAGE="${STAGE:-sft}"
case "${STAGE}" in
    pretrain)
        LR=1.0e-4
        MIN_LR=1.0e-5
        TRAIN_ITERS=20000
        ;;
    sft)
        LR=2.0e-5
        MIN_LR=2.0e-6
        TRAIN_ITERS=8000
        ;;
    *)
        echo "未知阶段: ${STAGE}" >&2
        exit 1
        ;;
esac

DISTRIBUTED_ARGS=(
    --nproc_per_node "${GPUS_PER_NODE}"
    --nnodes "${NNODES}"
    --node_rank "${NODE_RANK}"
    --master_addr "${MASTER_ADDR}"
    --master_port "${MASTER_PORT}"
)

MODEL_ARGS=(
    --model-name llava-ov-2-qwen3-8b
    --num-layers 36            # 语言模型层数
    --hidden-size 4096
    --ffn-hidden-size 12288
    --num-attention-heads 32
    --group-query-attention
    --num-query-groups 8
    --kv-channels 128
    --max-position-embeddings 40960
    --position-embedding-type rope
    --rotary-base 1000000
    --normalization RMSNorm
    --norm-epsilon 1e-6
    --swiglu
    --untie-embeddings-and-output-weights
    --disable-bias-linear
    --qk-layernorm

    # 视觉塔
    --vision-model-type siglip2-so400m
    --image-size 384
    --patch-size 14
    --vision-num-layers 27
    --vision-hidden-size 1152
    --anyres-max-tiles 9
    --projector-type mlp2x_gelu
)

DATA_ARGS=(
    --tokenizer-type HFTokenizer
    --hf-tokenizer-path "${TOKENIZER_PATH}"
    --data-path "${DATA_PATH}"
    --dataloader-type external
    --split 100,0,0
    --num-workers 16
    --chat-template qwen3
    --image-aspect-ratio anyres_max_9
    --video-max-frames 32
    --packing-buffer-size 2000   # 打包缓冲区
)

TRAINING_ARGS=(
    --training-phase "${STAGE}"
    --seq-length "${SEQ_LEN}"
    --max-packed-tokens "${SEQ_LEN}"
    # --micro-batch-size 4   (打包之前的旧设置)
    --micro-batch-size "${MBS}"
    --global-batch-size "${GBS}"
    --lr "${LR}"
    --min-lr "${MIN_LR}"
    --lr-decay-style cosine
    --lr-warmup-fraction 0.03
    --weight-decay 0.0
    --adam-beta1 0.9
    --adam-beta2 0.95
    --clip-grad 1.0
    --init-method-std 0.02
    --attention-dropout 0.0
    --hidden-dropout 0.0
    --train-iters "${TRAIN_ITERS}"
    --bf16
    --use-flash-attn
    --use-distributed-optimizer
    --overlap-grad-reduce
    --overlap-param-gather
    --recompute-granularity full
    --recompute-method block
    --recompute-num-layers 4
    --freeze-vision-model
    --trainable-modules language_model,adapter
)

PARALLEL_ARGS=(
    --tensor-model-parallel-size 2
    --pipeline-model-parallel-size 1
    --context-parallel-size 1
    --sequence-parallel
    --distributed-backend nccl
)

CHECKPOINT_ARGS=(
    --load "${LOAD_PATH}"
    --save "${CHECKPOINT_PATH}"
    --save-interval 500
    --no-load-optim
    --no-load-rng
    --ckpt-format torch
    --dist-ckpt-strictness log_all
)

LOGGING_ARGS=(
    --log-interval 1
    --log-throughput
    --tensorboard-dir "${TENSORBOARD_PATH}"
    --tensorboard-log-interval 10
    --log-timers-to-tensorboard
    --log-validation-ppl-to-tensorboard
    --wandb-project "${WANDB_PROJECT:-ov2-stage2}"
    --wandb-exp-name "${WANDB_NAME:-sft_$(date +%m%d)}"
)

IMG_ARGS=()
if [[ -n "${IMG_RESOLUTION:-}" ]]; then
    IMG_ARGS=(--image-resolution "${IMG_RESOLUTION}" --dynamic-resolution)
fi

EXTRA_ARGS=()
if [[ "${PROFILE:-0}" == "1" ]]; then
    EXTRA_ARGS+=(
        --profile
        --profile-step-start 10
        --profile-step-end 12
        --profile-ranks 0
    )
fi

print_config() {
    local name
    echo "==== OV2 stage2 配置 ===="
    for name in STAGE MBS GBS SEQ_LEN LR TRAIN_ITERS OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA; do
        printf '%-22s %s\n' "${name}" "${!name:-}"
    done
    echo "日志: ${logfile}"
}

resume_flag() {
    if [[ -f "${CHECKPOINT_PATH}/latest_checkpointed_iteration.txt" ]]; then
        echo "--load ${CHECKPOINT_PATH}"
    fi
}

# 说明：文档里常写 OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1，这里只是注释，不是赋值。
check_packing
print_config | tee -a "${logfile}"
read -r first_rank <<< "${NODE_RANK}"
if [[ "${first_rank}" == "0" ]]; then
    echo "主节点: ${MASTER_ADDR}:${MASTER_PORT}" | tee -a "${logfile}"
fi

cd "${AIAK_TRAINING_PATH}"
PYTHONPATH="${AIAK_MEGATRON_PATH}:${AIAK_TRAINING_PATH}:${PYTHONPATH:-}" \
    torchrun "${DISTRIBUTED_ARGS[@]}" \
    "${AIAK_TRAINING_PATH}/aiak_training_llm/train.py" \
    "${MODEL_ARGS[@]}" \
    "${DATA_ARGS[@]}" \
    "${TRAINING_ARGS[@]}" \
    "${PARALLEL_ARGS[@]}" \
    "${CHECKPOINT_ARGS[@]}" \
    "${LOGGING_ARGS[@]}" \
    ${IMG_ARGS:+${IMG_ARGS[@]}} \
    "${EXTRA_ARGS[@]}" \
    $(resume_flag) \
    2>&1 | tee -a "${logfile}"

status=${PIPESTATUS[0]}
if [[ ${status} -ne 0 ]]; then
    echo "训练失败，退出码 ${status}，日志见 ${logfile}" >&2
    exit "${status}"
fi
echo "训练完成: ${CHECKPOINT_PATH}"