#!/bin/bash
# deepspeed --num_nodes 2 (stub after DeepSpeed's runner): names with a forwarded prefix (NCCL_, PYTHON...) reach every rank, the gates do not.
export OFFLINE_PACKING_BMR=1 NCCL_DEBUG=INFO PYTHONUNBUFFERED=1
deepspeed --num_nodes=2 aiak_training_llm/train.py --micro-batch-size 1
