#!/bin/bash
# srun's own options with values come first; the trainer's --micro-batch-size is read from the program's words (srun stub after its manual).
# oracle-input:
# oracle-input: MBS=4
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
srun -p gpu -t 60 -J pack --export=ALL python aiak_training_llm/train.py --micro-batch-size "${MBS:-1}"
