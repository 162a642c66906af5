# Sourced by the stage scripts: `source packing_env.sh`.
# 被各阶段脚本 source 的环境文件（没有启动命令，按文件末尾的状态判断）。
OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
export NCCL_DEBUG=WARN
