#!/bin/bash
# Parameter transforms of values the script knows: ${X%%p}, ${X#p}, ${X/p/r}, ${X:o:l}, ${#X},
# ${X^^} give what bash gives; of a caller's value they stay unknown.
# oracle-input:
# oracle-input: MODE=0,1
# oracle-input: MODE=1,1 MBS=x2y
MODE=${MODE:-1,1}
export OFFLINE_PACKING_BMR=${MODE%%,*}
export OFFLINE_PACKED_DATA=${MODE#*,}
MBS=${MBS:-x1y}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size ${MBS:1:1}
FLAGS=packed-bmr
if [[ ${#FLAGS} -eq 10 ]]; then
    export OFFLINE_PACKED_DATA=${FLAGS/packed-/}
fi
NAME=one
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${NAME^^}"
SWITCH=on,1
export OFFLINE_PACKING_BMR=${SWITCH: -1} OFFLINE_PACKED_DATA=${SWITCH//[a-z,]/}
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
