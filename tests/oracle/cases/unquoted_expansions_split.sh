#!/bin/bash
# An unquoted expansion is split at blanks and an empty one makes no word; `${IN:+0}` of the
# caller's IN may make one; `$X` of a variable exported but never set is "" (set, empty).
# oracle-input:
# oracle-input: IN=1
E=" "
V='1 0'
A=(x)
A+=(${E}1); export OFFLINE_PACKING_BMR=${A[-1]}
A+=(${A[5]}); export OFFLINE_PACKED_DATA=${A[-1]}
A+=(${V/#/1}); export OFFLINE_PACKED_DATA=${A[-1]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
B=(1)
B+=(${IN:+0}); export OFFLINE_PACKED_DATA=${B[-1]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
export OFFLINE_PACKING_VQA
export OFFLINE_PACKED_DATA=$OFFLINE_PACKING_VQA
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
IFS=,
L="1,0"
S="0 1"
C=(x)
C+=($S); export OFFLINE_PACKED_DATA=${C[-1]}
C+=($L); export OFFLINE_PACKING_BMR=${C[-1]}
C+=(${A[5]}); export OFFLINE_PACKING_VQA=${C[-1]}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
