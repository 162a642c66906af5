"""A workspace in the shape of LLaVA-OneVision-2 `main` as issue 28 measured it, built from the
contract fixture's code (tests/fixtures/repo_contract) and launchers written here: 17 launchers
export PYTORCH_CUDA_ALLOC_CONF twice in a row, two of them pass `--image-resolution`, which no
parser of the code defines, and some get the packing gates wrong. Not copies of the real files."""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"

_ALLOC = ("export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n"
          "export PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72\n")

# (file, the gates' lines, the micro-batch size, a packing switch)
_STAGES = (
    ("stage_2/sft_packed_7b.sh", "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n", "1", "--packing-sft-data"),
    ("stage_2/sft_bmr_only.sh", "export OFFLINE_PACKING_BMR=1\n", "1", ""),
    ("stage_2/sft_packed_only.sh", "export OFFLINE_PACKED_DATA=1\n", "1", ""),
    ("stage_2/sft_mbs2.sh", "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n", "2", ""),
    ("stage_2/sft_vqa.sh", "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n", "1", ""),
    ("stage_2/sft_true.sh", "export OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\n", "1", ""),
    ("stage_2/sft_not_exported.sh", "OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n", "1", ""),
    ("stage_1_5/mid_packed.sh", "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n", "1", ""),
    ("stage_1_5/mid_plain.sh", "", "4", ""),
    ("stage_1_5/mid_plain_8.sh", "", "8", ""),
    ("stage_3/rl_packed.sh", "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n", "1", ""),
    ("stage_3/rl_bmr_mbs4.sh", "export OFFLINE_PACKING_BMR=1\n", "4", ""),
    ("stage_3/rl_plain.sh", "", "2", ""),
    ("stage_3/rl_packed_only_mbs4.sh", "export OFFLINE_PACKED_DATA=1\n", "4", ""),
    ("stage_3/rl_background.sh", "export OFFLINE_PACKING_BMR=1 &\nexport OFFLINE_PACKED_DATA=1\n", "1", ""),
)


# what the double export meant, written once: the launcher that gets it right
_ALLOC_JOINED = "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,garbage_collection_threshold:0.72\n"
JOINED = "stage_1_5/mid_plain_8.sh"


def _launcher(gates: str, mbs: str, switch: str, alloc: str) -> str:
    extra = f"    {switch} \\\n" if switch else ""
    return ("#!/bin/bash\n# 训练启动脚本（packgate 测试用）\nset -euo pipefail\n\n"
            "export CUDA_DEVICE_MAX_CONNECTIONS=1\n" + alloc + "export NCCL_DEBUG=WARN\n" + gates +
            "\nDATA_PATH=/data/train\n\n"
            "torchrun --nproc_per_node 8 --nnodes 1 \\\n    aiak_training_llm/train.py \\\n"
            f"    --micro-batch-size {mbs} \\\n    --global-batch-size 256 \\\n    --seq-length 8192 \\\n"
            + extra + "    --data-path $DATA_PATH \\\n    --bf16\n")


def build(root: Path) -> Path:
    """The workspace under root (a fresh folder); returns root."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True)
    for rel, gates, mbs, switch in _STAGES:
        path = root / "examples" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        alloc = _ALLOC_JOINED if rel == JOINED else _ALLOC
        path.write_text(_launcher(gates, mbs, switch, alloc), encoding="utf-8")
    return root
