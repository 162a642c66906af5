#!/bin/bash
# let A=1 B=A+1: B is 2, so PACKED_DATA is 2 (off) while BMR is 1 (a leak).
# oracle-input:
let A=1 B=A+1
export OFFLINE_PACKING_BMR=$A OFFLINE_PACKED_DATA=$B
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
