#!/bin/bash
# source <(CMD) runs what CMD prints in this shell: here it exports the batch gate only when PACK is set, which packgate cannot read (PG009, gates unknown).
# oracle-input:
# oracle-input: PACK=1
export OFFLINE_PACKING_BMR=1
source <(if [ -n "$PACK" ]; then printf 'export OFFLINE_PACKED_DATA=1\n'; fi)
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
