#!/bin/bash
# deepspeed without a hostfile or extra nodes (stub after DeepSpeed's runner): one node, its ranks get the runner's environment.
# oracle-input:
# oracle-input: PACKED=1
export OFFLINE_PACKING_BMR=1
[ -n "$PACKED" ] && export OFFLINE_PACKED_DATA=1
deepspeed --num_gpus 8 --master_port 29500 aiak_training_llm/train.py --micro-batch-size 1
