#!/bin/bash
# srun --export=ALL,NAME=value (stub after the srun manual): every export reaches the tasks and NAME gets the value.
# oracle-input:
# oracle-input: OFF=1
export OFFLINE_PACKING_BMR=1
if [ -n "$OFF" ]; then
    srun --export=ALL,OFFLINE_PACKED_DATA=0 python aiak_training_llm/train.py --micro-batch-size 1
else
    srun --export=ALL,OFFLINE_PACKED_DATA=1 python aiak_training_llm/train.py --micro-batch-size 1
fi
