#!/bin/bash
# deepspeed --num_nodes 2 (stub after DeepSpeed's runner): every rank starts over pdsh/ssh with only the forwarded prefixes (NCCL_, PYTHON...), so the gates stay behind; one node keeps them.
# oracle-input:
# oracle-input: ONE=1
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 NCCL_DEBUG=INFO
if [ -n "$ONE" ]; then
    deepspeed --num_gpus 8 aiak_training_llm/train.py --micro-batch-size 1
else
    deepspeed --hostfile hostfile --num_nodes 2 aiak_training_llm/train.py --micro-batch-size 1
fi
