"""What a launch is given, for the launch contract: every exported variable and the words after
the launcher (LaunchPath.vars / args / exported(), Launch.command)."""

from packgate.core.flow import analyze_flow
from packgate.core.flow.facts import ValKind
from packgate.core.parse import parse_bytes


def _flow(text: str, wide: bool = False):
    data = text.encode()
    return analyze_flow(parse_bytes(data), data, wide=wide)


SCRIPT = """\
export NCCL_DEBUG=INFO
PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128
export PYTORCH_CUDA_ALLOC_CONF
LOCAL_ONLY=1
RES=1000
torchrun --nproc_per_node 8 train.py --image-resolution $RES --micro-batch-size 1
"""


def test_every_exported_variable_reaches_the_launch():
    launch = _flow(SCRIPT).launches[0]
    assert launch.command == "torchrun"
    env = launch.paths[0].exported()
    assert env["NCCL_DEBUG"].val.text == "INFO"
    assert env["PYTORCH_CUDA_ALLOC_CONF"].val.text == "max_split_size_mb:128"
    assert "LOCAL_ONLY" not in env


def test_the_words_after_the_launcher_are_its_args():
    args = _flow(SCRIPT).launches[0].paths[0].args
    assert [a.text for a in args][:4] == ["--nproc_per_node", "8", "train.py", "--image-resolution"]


def test_a_wide_walk_follows_every_word_of_the_launch():
    narrow = _flow(SCRIPT).launches[0].paths[0].args
    wide = _flow(SCRIPT, wide=True).launches[0].paths[0].args
    assert wide[4].kind == ValKind.KNOWN and wide[4].text == "1000"
    assert narrow[4].text != "1000" or narrow[4].kind != ValKind.KNOWN or wide[4].text == "1000"


def test_env_i_clears_every_exported_variable():
    flow = _flow("export NCCL_DEBUG=INFO\nenv -i OFFLINE_PACKED_DATA=1 torchrun train.py\n")
    path = flow.launches[0].paths[0]
    assert path.cleared
    assert "NCCL_DEBUG" not in path.exported()
    assert path.exported()["OFFLINE_PACKED_DATA"].val.text == "1"


def test_set_a_exports_every_later_assignment():
    path = _flow("set -a\nFOO_BAR=2\ntorchrun train.py\n").launches[0].paths[0]
    assert path.exported()["FOO_BAR"].val.text == "2"


def test_export_after_export_n_is_exported_again():
    path = _flow("export NCCL_DEBUG=INFO\nexport -n NCCL_DEBUG\nexport NCCL_DEBUG\ntorchrun train.py\n").launches[0].paths[0]
    assert path.exported()["NCCL_DEBUG"].val.text == "INFO"
