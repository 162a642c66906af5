#!/bin/bash
# mpirun --hostfile FILE (stub after Open MPI's manual, this host's ranks): the file decides whether other hosts run ranks, so their view is only information.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
mpirun -np 16 --hostfile hosts.txt python aiak_training_llm/train.py --micro-batch-size 1
