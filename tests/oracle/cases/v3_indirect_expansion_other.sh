#!/bin/bash
# ${!src} names PACK_OFF for PACKED_DATA: 0 beside BMR 1 (a leak).
# oracle-input:
PACK_ON=1
PACK_OFF=0
on=PACK_ON
off=PACK_OFF
export OFFLINE_PACKING_BMR=${!on} OFFLINE_PACKED_DATA=${!off}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
