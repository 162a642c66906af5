#!/bin/bash
# An unquoted `${V:-d}` whose V is set is split like `$V`: `export "$n"=${V:-1}` with V='1 0'
# exports `$n=1`, then fails on `0`. With V empty, `${V-x}` is empty and `${V:-x}` is x.
# oracle-input:
# oracle-input: V=1
V=${V:-'1 0'}
n=OFFLINE_PACKING_BMR
export "$n"=${V:-1} || true
export OFFLINE_PACKED_DATA=${V:=0}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
E=
export OFFLINE_PACKED_DATA=1${E-0} OFFLINE_PACKING_BMR=${E:-1}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size ${E-1} 1
