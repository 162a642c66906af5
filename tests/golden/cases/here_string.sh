#!/bin/bash
# Here-strings feed data to read; the gates are exported normally.
IFS=, read -r -a NODES <<< "${NODE_LIST:-node0,node1}"
read -r STAGE <<< "${1:-sft}"

export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 --nnodes "${#NODES[@]}" aiak_training_llm/train.py \
    --micro-batch-size 1 \
    --wandb-exp-name "ov2_${STAGE}"
