#!/bin/bash
# Tab-indented function body and a tab between export and the name.
setup_env() {
	export	OFFLINE_PACKING_BMR=1
	export NCCL_DEBUG=WARN
}

setup_env

torchrun --nproc_per_node 8 aiak_training_llm/train.py \
	--micro-batch-size 1
