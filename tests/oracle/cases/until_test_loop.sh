#!/bin/bash
# until on a test: the body may run.
# oracle-input:
# oracle-input: DONE=1
export OFFLINE_PACKED_DATA=1
until [ -n "$DONE" ]; do export OFFLINE_PACKING_BMR=1; DONE=1; done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
