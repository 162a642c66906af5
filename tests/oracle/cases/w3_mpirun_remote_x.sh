#!/bin/bash
# mpirun -H other hosts (stub after Open MPI's mpirun manual): the ranks there get only the -x names; -x NAME=value sets it too.
# oracle-input:
# oracle-input: BOTH=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$BOTH" ]; then
    mpirun -np 16 -H node1:8,node2:8 -x OFFLINE_PACKING_BMR -x OFFLINE_PACKED_DATA=1 python aiak_training_llm/train.py --micro-batch-size 1
else
    mpirun -np 16 -H node1:8,node2:8 -x OFFLINE_PACKING_BMR python aiak_training_llm/train.py --micro-batch-size 1
fi
