#!/bin/bash
# a file the script writes at run time and then sources: its content is the script's run-time choice (PG009, gates unknown).
# oracle-input:
# oracle-input: PACK=1
export OFFLINE_PACKING_BMR=1
echo "export OFFLINE_PACKED_DATA=${PACK:-0}" > gen_env.sh
source ./gen_env.sh
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
