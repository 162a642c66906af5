#!/bin/bash
# Keep the caller's batch gate if it is set, else export 1 (the same as ${X:-1}).
# When the test succeeds the gate came from the caller's environment: unknown, not unset.
export OFFLINE_PACKING_BMR=1
[[ -n "${OFFLINE_PACKED_DATA:-}" ]] || export OFFLINE_PACKED_DATA=1

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
