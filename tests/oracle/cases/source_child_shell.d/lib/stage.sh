#!/bin/bash
# padding that moves this file's offsets away from the main script's: a child shell's text is read from this file
export OFFLINE_PACKING_BMR=1
bash -c "export OFFLINE_PACKED_DATA=1; torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1"
