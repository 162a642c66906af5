#!/bin/bash
# mpirun --host=a,b (stub after Open MPI's manual): other hosts get only the -x names, here none: the gates stay on this host.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
mpirun --host=node1,node2 -np 2 python aiak_training_llm/train.py --micro-batch-size 1
