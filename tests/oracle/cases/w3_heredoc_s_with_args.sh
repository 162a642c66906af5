#!/bin/bash
# bash -s ARGS <<'EOF': the here-document is the script, ARGS its positional parameters; the launch inside is checked there.
# oracle-input:
# oracle-input: MBS=2
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
bash -s -- "${MBS:-1}" <<'SCRIPT'
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "$1"
SCRIPT
