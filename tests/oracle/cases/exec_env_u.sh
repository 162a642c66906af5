#!/bin/bash
# exec env -u: the same for exec.
export OFFLINE_PACKING_BMR=1
export OFFLINE_PACKED_DATA=1
exec env -u OFFLINE_PACKING_BMR torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
