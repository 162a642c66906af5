#!/bin/bash
# getopts -p VALUE sets both gates to the caller's value; -m sets the micro-batch size.
# oracle-input:
# oracle-input: -- -p 1
# oracle-input: -- -m 2
# oracle-input: -- -p 1 -m 2
# oracle-input: -- -m 4 -p 0
PACK=0
MBS=1
while getopts "p:m:" opt; do
    case $opt in
        p) PACK=$OPTARG ;;
        m) MBS=$OPTARG ;;
        *) exit 2 ;;
    esac
done
export OFFLINE_PACKING_BMR=$PACK OFFLINE_PACKED_DATA=$PACK
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "$MBS"
