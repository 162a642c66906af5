#!/bin/bash
# srun --export VALUE (stub after the srun manual): the option's value may be the next word.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
srun -n 8 --export OFFLINE_PACKED_DATA python aiak_training_llm/train.py --micro-batch-size 1
