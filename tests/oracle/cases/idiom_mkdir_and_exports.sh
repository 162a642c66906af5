#!/bin/bash
# mkdir -p && export A && export B: when mkdir fails both exports are skipped (no finding).
# oracle-input:
# oracle-input: OUT=out
mkdir -p "$OUT" && export OFFLINE_PACKING_BMR=1 && export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
