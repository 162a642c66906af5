#!/bin/bash
# (( PACK )) && export ...: with PACK=1 both gates are exported, with PACK=0 neither.
# oracle-input:
# oracle-input: PACK=0
PACK=${PACK:-1}
(( PACK )) && export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
