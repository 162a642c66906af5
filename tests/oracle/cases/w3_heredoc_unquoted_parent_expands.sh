#!/bin/bash
# bash <<EOF (unquoted delimiter): this shell expands the text first, so the child gets the value of a variable this shell never exported.
# oracle-input:
# oracle-input: OFF=1
export OFFLINE_PACKING_BMR=1
PACK=1
[ -n "$OFF" ] && PACK=0
bash <<SCRIPT
export OFFLINE_PACKED_DATA=$PACK
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
SCRIPT
