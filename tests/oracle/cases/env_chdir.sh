#!/bin/bash
# env -C DIR (--chdir) runs its command in DIR with the environment env was given: DIR is the folder, the next word the command.
# oracle-input:
# oracle-input: LONG=1
export OFFLINE_PACKING_BMR=1
if [ -n "$LONG" ]; then
    env --chdir /tmp OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
else
    env -C /tmp torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
fi
