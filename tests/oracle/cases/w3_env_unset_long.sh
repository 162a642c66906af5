#!/bin/bash
# env --unset=NAME removes one variable from the command's environment (as env -u NAME and the glued -uNAME do).
# oracle-input:
# oracle-input: GLUED=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$GLUED" ]; then
    env -uOFFLINE_PACKING_BMR -uOFFLINE_PACKED_DATA torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    env --unset=OFFLINE_PACKED_DATA torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
