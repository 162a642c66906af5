#!/bin/bash
# The batch gate is read from a file written by an earlier job. `${PACKED:-0}` is not a
# caller's default here: PACKED is a command's output, so 0 is only one of the values the
# launch may see. packgate cannot know the pair and says so as information, not as an error.
export OFFLINE_PACKING_BMR=1
PACKED=$(cat "$RUN_DIR/packed.flag")
export OFFLINE_PACKED_DATA=${PACKED:-0}

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
