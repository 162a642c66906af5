#!/bin/bash
# a && b || c: when the test fails b is skipped and c runs; when it holds c is skipped.
# oracle-input:
# oracle-input: PACK=1
[[ -n "$PACK" ]] && export OFFLINE_PACKING_BMR=1 || export OFFLINE_PACKED_DATA=1
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
