#!/bin/bash
# deepspeed --hostfile FILE (stub after DeepSpeed's runner, one node): the file's host count decides whether the gates stay behind; packgate says so as information only.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
deepspeed --hostfile hostfile aiak_training_llm/train.py --micro-batch-size 1
