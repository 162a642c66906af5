#!/bin/bash
# Brace expansion makes several words of one before any other expansion, also in a
# declaration's and unset's arguments and in env's: `OFFLINE_PACKING_{BMR,X}=1` exports
# OFFLINE_PACKING_BMR and OFFLINE_PACKING_X. A quoted brace is text, a plain assignment's
# value is not expanded, and in `export NAME={0,1}` the last word wins.
export OFFLINE_PACKING_{BMR,X}=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
declare -x OFFLINE_PACKED_{DATA,Y}=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
unset OFFLINE_PACK{ING_BMR,ED_DATA}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
env OFFLINE_PACKING_{BMR,VQA}=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
export OFFLINE_PACKED_DATA={1,0}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
OFFLINE_PACKING_BMR={0,1}
export OFFLINE_PACKING_BMR
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
export "OFFLINE_PACKED_{DATA,Z}=1" || true
export OFFLINE_PACKED_DATA\{1,2\}=1 || true
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
