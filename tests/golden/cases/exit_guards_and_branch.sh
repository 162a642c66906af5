#!/bin/bash
# Guards whose other side exits (need_dir, `|| exit 1`) are taken the same way on every path
# that reaches the launch: PG007 names the decision that differs, the if at line 8.
need_dir() {
    [[ -d "$1" ]] || { echo "missing $1" >&2; exit 1; }
}
export OFFLINE_PACKED_DATA=1
if [ "$STAGE" = 2 ]; then
    export OFFLINE_PACKING_BMR=1
fi
need_dir /data/a
need_dir /data/b
[[ -n "$X" ]] || exit 1
torchrun aiak_training_llm/train.py --micro-batch-size 1
