#!/bin/bash
# Setup line pasted from a README: the '&' sends the first export to a background job.
# 从文档里粘贴的一行：'&' 让第一个 export 在后台子 shell 里执行。
export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'

torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1
