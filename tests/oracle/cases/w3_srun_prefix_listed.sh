#!/bin/bash
# NAME=value srun --export=NAME (stub after the srun manual): the prefix is in srun's environment, so the listed name carries it.
OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 srun --export=OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA python aiak_training_llm/train.py --micro-batch-size 1
