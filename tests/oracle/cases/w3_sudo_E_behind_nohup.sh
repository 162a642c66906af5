#!/bin/bash
# nohup sudo -E CMD (sudo stub after sudoers(5)): -E keeps the exports through both wrappers; the launch is the command behind them.
# oracle-input:
# oracle-input: MBS=4
export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1
nohup sudo -E torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS:-1}"
