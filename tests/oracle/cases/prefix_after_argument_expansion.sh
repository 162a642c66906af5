#!/bin/bash
# The arguments are expanded before the prefix assignments are made: the flag gets the shell's
# MBS (1 here, or the caller's), never the 4 of the prefix.
# oracle-input:
# oracle-input: MBS=2
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
MBS=${MBS:-1}
MBS=4 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size $MBS
