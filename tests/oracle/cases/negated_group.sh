#!/bin/bash
# ! { false; }: the status is inverted, the && runs.
! { false; } && export OFFLINE_PACKING_BMR=1 && export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
