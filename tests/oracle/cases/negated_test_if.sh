#!/bin/bash
# if ! [ -z ... ]: then when the word is set.
# oracle-input:
# oracle-input: PACK=1
if ! [ -z "$PACK" ]; then export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1; fi
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
