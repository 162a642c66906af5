#!/bin/bash
#SBATCH --nodes=4
#SBATCH --gpus-per-node=8
export OFFLINE_PACKING_BMR=1

srun --nodes 4 --ntasks-per-node 1 \
    torchrun --nproc_per_node 8 aiak_training_llm/train.py \
    --micro-batch-size 1
