#!/bin/bash
# Brace expansion in a `for` loop's items, an array's elements and a launcher's arguments:
# sequences (`{1..3}`, `{a..c}`, zero-padded `{01..2}`, with a step), nested groups, an
# expansion inside a group, and a group that expands to nothing (`{,}`).
for g in OFFLINE_PACK{ING_BMR,ED_DATA}; do
    export "$g=1"
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
MBS=({4..1..3})
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS[1]}"
ONE=1
ARGS=(--micro-batch-size {"$ONE",2} --seq-length {01..2} x{a,b{c,d}}y)
torchrun --nproc_per_node 8 aiak_training_llm/train.py "${ARGS[@]}"
unset OFFLINE_PACKED_DATA{,}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size {,}1
for v in {a..c}; do
    export OFFLINE_PACKING_VQA="$v"
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
