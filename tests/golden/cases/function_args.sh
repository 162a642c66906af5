#!/bin/bash
# A launch function called once per stage; the micro-batch size is its second argument.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1

launch_stage() {
    local data_path=$1
    local mbs=$2
    torchrun --nproc_per_node 8 aiak_training_llm/train.py \
        --data-path "$data_path" \
        --micro-batch-size "$mbs"
}

launch_stage /mnt/data/stage1_packed 1
launch_stage /mnt/data/stage2_packed 2
