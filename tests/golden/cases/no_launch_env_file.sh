#!/bin/bash
# packing.env: meant to be sourced before launching (no launch in this file).
export OFFLINE_PACKING_BMR=1
export NCCL_IB_DISABLE=0
