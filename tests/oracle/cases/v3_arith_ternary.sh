#!/bin/bash
# (( MBS = PACK ? 1 : 4 )): packing on gets 1.
# oracle-input:
PACK=1
(( MBS = PACK ? 1 : 4 ))
(( PACK )) && export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size $MBS
