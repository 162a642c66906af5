#!/bin/bash
# deepspeed --force_multi (stub after DeepSpeed's runner): .deepspeed_env lists one gate, so the ranks get it and not the other.
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
deepspeed --force_multi aiak_training_llm/train.py --micro-batch-size 1
