#!/bin/bash
# <<- drops each line's leading tabs: the lines are both gates' NAME=1, exported (both on).
# oracle-input:
mapfile -t ENVS <<-'EOF'
	OFFLINE_PACKING_BMR=1
	OFFLINE_PACKED_DATA=1
	EOF
export "${ENVS[@]}"
torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
