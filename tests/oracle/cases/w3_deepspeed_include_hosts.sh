#!/bin/bash
# deepspeed -H FILE --include a@b (stub after DeepSpeed's runner): two hosts named, so the ranks get only the forwarded names; one host keeps them.
# oracle-input:
# oracle-input: ONE=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
if [ -n "$ONE" ]; then
    deepspeed -H hostfile --include localhost:0,1 aiak_training_llm/train.py --micro-batch-size 1
else
    deepspeed -H hostfile --include node1@node2 aiak_training_llm/train.py --micro-batch-size 1
fi
