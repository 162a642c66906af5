#!/bin/bash
# the script rewrites gen_env.sh before sourcing it: the copy on disk is not what bash sources.
# oracle-input:
# oracle-input: PACK=0
export OFFLINE_PACKING_BMR=1
printf 'export OFFLINE_PACKED_DATA=%s\n' "${PACK:-1}" > gen_env.sh
source gen_env.sh
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
