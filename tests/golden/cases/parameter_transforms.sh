#!/bin/bash
# Gates cut out of one setting with parameter transforms: bash gives BMR=1 and PACKED_DATA=0,
# then both 1 with a micro-batch size of 2 (the sixth character of "stage2").
PACKING=${PACKING:-1,0}
export OFFLINE_PACKING_BMR=${PACKING%%,*}
export OFFLINE_PACKED_DATA=${PACKING#*,}
RUN_NAME=stage2
MBS=${RUN_NAME:5:1}

torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1

export OFFLINE_PACKED_DATA=${OFFLINE_PACKING_BMR/#0/}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "$MBS"
