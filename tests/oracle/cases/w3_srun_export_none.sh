#!/bin/bash
# srun --export=NONE (its stub follows the srun manual): the tasks get none of this shell's variables; without --export (ALL, the default) they get every export.
# oracle-input:
# oracle-input: ALL=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$ALL" ]; then
    srun -N 2 --ntasks-per-node 8 python aiak_training_llm/train.py --micro-batch-size 1
else
    srun --export=NONE -N 2 python aiak_training_llm/train.py --micro-batch-size 1
fi
