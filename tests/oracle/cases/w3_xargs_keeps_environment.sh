#!/bin/bash
# xargs runs its command with this shell's exported environment; its input words come after the command's own.
# oracle-input:
# oracle-input: PACKED=1
export OFFLINE_PACKING_BMR=1
[ -n "$PACKED" ] && export OFFLINE_PACKED_DATA=1
echo aiak_training_llm/train.py | xargs torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
