#!/bin/bash
# unset "${!OFFLINE_PACKING@}" removes BMR but not PACKED_DATA (corrupt).
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
unset "${!OFFLINE_PACKING@}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
