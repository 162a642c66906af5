#!/bin/bash
# eval 'exit 0' ends the script before the launch.
# oracle-input:
# oracle-input: STOP=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
[ -n "$STOP" ] && eval 'exit 0'
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
