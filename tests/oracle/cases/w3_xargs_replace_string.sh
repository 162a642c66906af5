#!/bin/bash
# xargs -I{} puts each input line where {} stands: the micro-batch size comes from the input, which the script prints.
# oracle-input:
# oracle-input: MBS=2
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
echo "${MBS:-1}" | xargs -I{} torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size {}
