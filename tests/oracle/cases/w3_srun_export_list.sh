#!/bin/bash
# srun --export=NAME,NAME=value (stub after the srun manual): only the listed names (and SLURM_*) reach the tasks.
# oracle-input:
# oracle-input: BOTH=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$BOTH" ]; then
    srun --export=PATH,OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA=1 python aiak_training_llm/train.py --micro-batch-size 1
else
    srun --export=PATH,OFFLINE_PACKING_BMR python aiak_training_llm/train.py --micro-batch-size 1
fi
