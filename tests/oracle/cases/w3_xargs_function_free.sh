#!/bin/bash
# echo ... | xargs -0 CMD: xargs runs CMD with this shell's exports; a gate exported after the pipeline does not reach it.
export OFFLINE_PACKING_BMR=1
printf 'aiak_training_llm/train.py' | xargs -0 torchrun --nproc_per_node 8 --micro-batch-size 1
export OFFLINE_PACKED_DATA=1
