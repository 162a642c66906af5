#!/bin/bash
# deepspeed on several nodes (stub after DeepSpeed's runner) sets the lines of .deepspeed_env in the working folder on every rank.
# oracle-input:
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
deepspeed --include node1@node2 aiak_training_llm/train.py --micro-batch-size 1
