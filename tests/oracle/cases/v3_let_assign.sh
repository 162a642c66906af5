#!/bin/bash
# let MBS=2*2-3 gives 1; let PACK=MBS sets the gate 1.
# oracle-input:
let MBS=2*2-3
let "PACK = MBS"
export OFFLINE_PACKING_BMR=$PACK OFFLINE_PACKED_DATA=$PACK
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size $MBS
