#!/bin/bash
# ${CFG[packed]:-1} on a missing key gives the default 1 (both on); on an empty one too.
# oracle-input:
declare -A CFG=([bmr]=1 [vqa]=)
export OFFLINE_PACKING_BMR=${CFG[bmr]}
export OFFLINE_PACKED_DATA=${CFG[packed]:-1}
export OFFLINE_PACKING_VQA=${CFG[vqa]:-0}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
