#!/bin/bash
# getopts -b and -d turn one gate on each: every combination of the options the usage line offers is a path.
# oracle-input:
# oracle-input: -- -b
# oracle-input: -- -d
# oracle-input: -- -b -d
usage() { echo "usage: $0 [-b] [-d]"; }
while getopts "bd" opt; do
    case $opt in
        b) export OFFLINE_PACKING_BMR=1 ;;
        d) export OFFLINE_PACKED_DATA=1 ;;
        *) usage; exit 2 ;;
    esac
done
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
