#!/bin/bash
# exec env ...: the second launch is never reached.
exec env OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
