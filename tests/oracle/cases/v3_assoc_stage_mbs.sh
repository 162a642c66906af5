#!/bin/bash
# a per-stage table indexed by $STAGE gives the launch its micro-batch size: 4 for s1 (packing off), 1 for s2 (packing on).
# oracle-input: -- s1
# oracle-input: -- s2
declare -A MBS_BY_STAGE=([s1]=4 [s2]=1)
case "$1" in
    s1) STAGE=s1 ;;
    *) STAGE=s2; export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 ;;
esac
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS_BY_STAGE[$STAGE]}"
