#!/bin/bash
# ${!src} is the value of the variable src names: 1.
# oracle-input:
PACK_ON=1
src=PACK_ON
export OFFLINE_PACKING_BMR=${!src} OFFLINE_PACKED_DATA=${!src}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
