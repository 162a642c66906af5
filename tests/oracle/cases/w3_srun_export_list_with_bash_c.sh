#!/bin/bash
# srun --export=NAME bash -c '...' (srun stub after its manual): the tasks start with the listed names only; the launch is srun's.
# oracle-input:
# oracle-input: ALL=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$ALL" ]; then
    srun --export=ALL python aiak_training_llm/train.py --micro-batch-size 1
else
    srun --export=OFFLINE_PACKED_DATA python aiak_training_llm/train.py --micro-batch-size 1
fi
