#!/bin/bash
# mpirun without other hosts (stub after Open MPI's manual): every rank runs here and inherits mpirun's whole environment.
# oracle-input:
# oracle-input: PACKED=1
export OFFLINE_PACKING_BMR=1
[ -n "$PACKED" ] && export OFFLINE_PACKED_DATA=1
mpirun -np 8 -H localhost:8 python aiak_training_llm/train.py --micro-batch-size 1
