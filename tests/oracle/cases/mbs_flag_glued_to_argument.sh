#!/bin/bash
# --micro-batch-size=$1 passes the flag, its value the caller's: quoted or not, and with more after the expansion.
# oracle-input:
# oracle-input: -- 2 4
# oracle-input: -- 1 1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py "--micro-batch-size=$1"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size=$2
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size=${2}0
