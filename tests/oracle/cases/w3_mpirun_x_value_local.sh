#!/bin/bash
# mpirun -x NAME=value on this host only (stub after Open MPI's manual): the ranks inherit mpirun's environment and -x sets NAME.
# oracle-input:
# oracle-input: OFF=1
export OFFLINE_PACKING_BMR=1
mpirun -np 8 -x OFFLINE_PACKED_DATA="${OFF:+0}${OFF:-1}" python aiak_training_llm/train.py --micro-batch-size 1
