"""The contract index (core/code/): environment reads with their parse and default, argparse
options per parser, an entry point's parser, and the bounds, over code written here in the
shapes FACTS.md sections 4 and 9 describe (not copies of the training code)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from packgate.core.code import index as ci
from packgate.core.code import reading
from packgate.core.code.entry import Entry, EntryKind, entry_of
from packgate.core.code.envreads import Default, Parse, env_reads
from packgate.core.code.options import UNKNOWN_TYPE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

TASK_ENCODER = '''\
import os


class TaskEncoder:
    def encode_sample(self, sample):
        for sub in sample.packed:
            if int(os.environ.get("OFFLINE_PACKING_BMR", 0)) == 1:
                yield self.encode_multi_mix(sub)

    def batch(self, samples):
        if self.is_packing_enabled or int(os.environ.get("OFFLINE_PACKED_DATA", 0)) == 1:
            return [s.cu_lengths for s in samples]
        return [[0]]
'''

ENCODER_MODEL = '''\
"""编码器：patch embedding 的实现由环境变量选择。"""
import os as _os
from os import environ, getenv

env = _os.environ
SCATTER = env.get("SCATTER_BEFORE_PATCH_EMBED", "0") == "1"


class VisionEncoder:
    def __init__(self, config):
        kind = getenv("PATCH_EMBED_TYPE", "linear")
        if kind.upper() in {"TP_LINEAR", "LINEAR", "CONV2D"}:
            self.kind = kind
        if "ENCODER_DEBUG" in environ:
            print("debug")
        self.root = _os.path.join(environ["ENCODER_CACHE"], "x")
        mode = _os.environ.get("ENCODER_MODE", "Fast").lower()
        if mode == "fast":
            pass
'''

CHECKPOINTING = '''\
import os

_CHECK = int(os.environ.get("TE_EXTRA_STATE_MISSING_CHECK", 0)) == 1


def load(path):
    level = os.getenv("MEGATRON_LOGGING_LEVEL")
    if level is not None:
        set_level(int(level))
'''

TRANSFORMER_ENGINE = '''\
import os


class TEDotProductAttention:
    def __init__(self, config):
        scaling = os.environ.get("NVTE_APPLY_QK_LAYER_SCALING", "0")
        self.apply_qk_layer_scaling = bool(int(scaling))
        if os.environ.get("CUDA_DEVICE_MAX_CONNECTIONS") != "1":
            raise RuntimeError("set CUDA_DEVICE_MAX_CONNECTIONS=1")
        self.ratio = float(os.environ.get("ATTN_RATIO", "0.5"))
        if os.environ.get("NCCL_ALGO", "Ring") not in ("Tree", "Ring"):
            pass
'''

MEGATRON_ARGUMENTS = '''\
import argparse


def parse_args(extra_args_provider=None, ignore_unknown_args=False):
    parser = argparse.ArgumentParser(description="Megatron-LM Arguments", allow_abbrev=False)
    parser = _add_network_size_args(parser)
    parser = _add_training_args(parser)
    _add_data_args(parser)
    if extra_args_provider is not None:
        parser = extra_args_provider(parser)
    if ignore_unknown_args:
        args, _ = parser.parse_known_args()
    else:
        args = parser.parse_args()
    return args


def _add_network_size_args(parser):
    group = parser.add_argument_group(title="network size")
    group.add_argument("--num-layers", type=int, default=None)
    group.add_argument("--attention-backend", type=str, default="auto",
                       choices=["flash", "fused", "unfused", "local", "auto"])
    return parser


def _add_training_args(parser):
    group = parser.add_argument_group(title="training")
    group.add_argument("--micro-batch-size", type=int, default=None)
    group.add_argument("--apply-query-key-layer-scaling", action="store_true")
    _add_mixed_precision(group)
    return parser


def _add_mixed_precision(group):
    group.add_argument("--bf16", action="store_true")
'''

MEGATRON_DATA_ARGS = '''\
def _add_data_args(parser):
    group = parser.add_argument_group(title="data")
    group.add_argument("--data-path", nargs="*", default=None)
    group.add_argument("--packing-sft-data", action="store_true")
    return parser
'''

OV2_TRAIN = '''\
from megatron.training import pretrain
from aiak_training_llm.train.extra import add_extra_args


def model_provider(pre_process=True, post_process=True):
    return None


if __name__ == "__main__":
    pretrain(None, model_provider, None, None, extra_args_provider=add_extra_args)
'''

OV2_EXTRA = '''\
def add_extra_args(parser):
    group = parser.add_argument_group(title="llava")
    group.add_argument("--packing-pretrain-data", action="store_true")
    group.add_argument("--vision-tower", type=str, choices=VISION_TOWERS)
    return parser
'''

OV15_ARGUMENTS = '''\
import argparse


def str2bool(v):
    return v.lower() in ("1", "true")


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--image-resolution", type=int, default=448)
    parser.add_argument("--freeze-vit", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--precision", choices=("bf16", "fp16", "fp32"), default="bf16")
    parser.add_argument("--data-files", nargs="+")
    parser.add_argument("--use-flash", type=str2bool, default=True)
    parser.add_argument("config")
    args, unknown = parser.parse_known_args()
    return args
'''

OV15_TRAIN = '''\
from llava.arguments import get_args

if __name__ == "__main__":
    args = get_args()
'''


def write(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def reads(text: str, whole: bool = True) -> dict:
    parsed = reading.parse(text.encode(), whole=whole)
    return {r.name: r for r in env_reads(parsed, "f.py")}


def both_ways(text: str) -> dict:
    """The reads of a file parsed whole and piece by piece: the two must agree."""
    whole, pieces = reads(text, True), reads(text, False)
    assert whole == pieces
    return whole


@pytest.fixture(autouse=True)
def fresh_cache():
    ci.invalidate()
    yield
    ci.invalidate()


# ---------------------------------------------------------------- environment reads

def test_task_encoder_gates_are_int_compared_with_1():
    got = both_ways(TASK_ENCODER)
    bmr = got["OFFLINE_PACKING_BMR"]
    assert (bmr.parse, bmr.values, bmr.negated) == (Parse.INT_EQ, (1,), False)
    assert (bmr.default_kind, bmr.default) == (Default.LITERAL, 0)
    assert (bmr.line, bmr.column) == (7, 20)
    assert got["OFFLINE_PACKED_DATA"].parse is Parse.INT_EQ


def test_string_compare_upper_in_a_set_presence_path_and_aliases():
    got = both_ways(ENCODER_MODEL)
    scatter = got["SCATTER_BEFORE_PATCH_EMBED"]
    assert (scatter.parse, scatter.values, scatter.default) == (Parse.STR_EQ, ("1",), "0")
    embed = got["PATCH_EMBED_TYPE"]  # through a local variable, read at :11, parsed at :12
    assert (embed.parse, embed.values) == (Parse.UPPER_IN, ("CONV2D", "LINEAR", "TP_LINEAR"))
    assert (embed.line, embed.parsed_line) == (11, 12)
    assert got["ENCODER_DEBUG"].parse is Parse.PRESENCE
    assert got["ENCODER_DEBUG"].default_kind is Default.NOT_APPLICABLE
    cache = got["ENCODER_CACHE"]
    assert (cache.parse, cache.default_kind) == (Parse.PATH, Default.REQUIRED)
    mode = got["ENCODER_MODE"]
    assert (mode.parse, mode.values, mode.default) == (Parse.LOWER_EQ, ("fast",), "Fast")


def test_int_at_import_and_int_when_set():
    got = both_ways(CHECKPOINTING)
    check = got["TE_EXTRA_STATE_MISSING_CHECK"]
    assert (check.parse, check.values, check.line) == (Parse.INT_EQ, (1,), 3)
    level = got["MEGATRON_LOGGING_LEVEL"]
    assert (level.parse, level.default_kind, level.parsed_line) == (Parse.INT, Default.NONE, 9)


def test_bool_int_string_not_equal_float_and_not_in():
    got = both_ways(TRANSFORMER_ENGINE)
    assert got["NVTE_APPLY_QK_LAYER_SCALING"].parse is Parse.BOOL_INT
    assert got["NVTE_APPLY_QK_LAYER_SCALING"].default == "0"
    cuda = got["CUDA_DEVICE_MAX_CONNECTIONS"]
    assert (cuda.parse, cuda.values, cuda.negated) == (Parse.STR_NE, ("1",), True)
    assert got["ATTN_RATIO"].parse is Parse.FLOAT
    algo = got["NCCL_ALGO"]
    assert (algo.parse, algo.values, algo.negated) == (Parse.IN_SET, ("Ring", "Tree"), True)


def test_writes_strings_and_comments_are_not_reads():
    got = both_ways('import os\n# os.environ.get("A")\ns = "os.environ[\'B\']"\nos.environ["C"] = "1"\n'
                    'def f():\n    """os.getenv("D")"""\n    del os.environ["E"]\n')
    assert got == {}


def test_or_default_constant_names_and_unknown_defaults():
    got = both_ways('import os\nNAME = "FROM_CONST"\n'
                    'def f(d):\n    a = os.environ.get("ORED") or "0"\n    if int(a) == 1:\n        pass\n'
                    '    b = os.environ.get(NAME, d)\n    return b\n')
    assert (got["ORED"].default_kind, got["ORED"].default, got["ORED"].parse) == (Default.LITERAL, "0", Parse.INT_EQ)
    assert (got["FROM_CONST"].default_kind, got["FROM_CONST"].parse) == (Default.UNKNOWN, Parse.UNKNOWN)


def test_pieces_fall_back_to_the_whole_file_when_the_guess_is_off():
    text = 'import os\nX = """\ndef f():\n    os.environ.get("IN_STRING")\n"""\nY = os.environ.get("REAL")\n'
    assert set(both_ways(text)) == {"REAL"}


# ---------------------------------------------------------------- options and entry points

def megatron_workspace(root: Path) -> Path:
    return write(root, {
        "pyproject.toml": "",
        "aiak_megatron/megatron/__init__.py": "",
        "aiak_megatron/megatron/training/__init__.py": "from .training import pretrain\n",
        "aiak_megatron/megatron/training/training.py":
            "from megatron.training.initialize import initialize_megatron\n\n"
            "def pretrain(a, b, c, d, extra_args_provider=None, args_defaults={}):\n"
            "    initialize_megatron(extra_args_provider=extra_args_provider)\n",
        "aiak_megatron/megatron/training/initialize.py":
            "from megatron.training.arguments import parse_args\n\n"
            "def initialize_megatron(extra_args_provider=None, ignore_unknown_args=False):\n"
            "    args = parse_args(extra_args_provider, ignore_unknown_args)\n",
        "aiak_megatron/megatron/training/arguments.py":
            "from megatron.training.data_args import _add_data_args\n" + MEGATRON_ARGUMENTS,
        "aiak_megatron/megatron/training/data_args.py": MEGATRON_DATA_ARGS,
        "aiak_megatron/megatron/training/checkpointing.py": CHECKPOINTING,
        "aiak_training_llm/__init__.py": "",
        "aiak_training_llm/train.py": OV2_TRAIN,
        "aiak_training_llm/train/__init__.py": "",  # as in OV2: a train/ package beside train.py
        "aiak_training_llm/train/pretrain/__init__.py": "",
        "aiak_training_llm/train/extra.py": "VISION_TOWERS = ('siglip', 'rice')\n" + OV2_EXTRA,
        "aiak_training_llm/data/multimodal/task_encoder.py": TASK_ENCODER,
        "tools/convert.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--src')\n"
                            "p.parse_args()\n",
    })


def test_megatron_parser_gathers_helpers_groups_and_the_extra_args_provider(tmp_path):
    index = ci.contract_index(str(megatron_workspace(tmp_path)))
    got = index.options_for("aiak_training_llm/train.py")
    assert got.how is ci.How.IMPORTED and got.file == "aiak_training_llm/train.py"
    assert [p.line for p in got.parsers] == [6] and got.allow_abbrev is False
    assert "arguments.py:6" in got.why
    strings = got.strings()
    for option in ("--num-layers", "--attention-backend", "--micro-batch-size", "--bf16", "--data-path",
                   "--packing-sft-data", "--packing-pretrain-data", "--vision-tower", "-h", "--help"):
        assert option in strings, option
    assert "--src" not in strings  # tools/convert.py's parser is not the trainer's
    by = {o.strings[0]: o for o in got.options}
    assert by["--attention-backend"].choices == ("flash", "fused", "unfused", "local", "auto")
    assert by["--num-layers"].type == "int" and by["--data-path"].nargs == "*"
    assert by["--vision-tower"].choices == UNKNOWN_TYPE  # a name, not a literal
    assert by["--bf16"].function == "_add_mixed_precision"  # added on a group handed on
    assert by["--packing-sft-data"].file.endswith("data_args.py")  # across files, imported by name
    tol = index.tolerant("aiak_training_llm/train.py")
    assert tol.tolerant is False and "parse_args" in tol.why  # ignore_unknown_args defaults to False


def test_ignore_unknown_args_true_makes_the_entry_tolerant(tmp_path):
    root = megatron_workspace(tmp_path)
    train = root / "aiak_training_llm/train.py"
    train.write_text(OV2_TRAIN.replace("extra_args_provider=add_extra_args",
                                       "extra_args_provider=add_extra_args, ignore_unknown_args=True"))
    got = ci.contract_index(str(root)).tolerant(Entry(EntryKind.SCRIPT, "aiak_training_llm/train.py"))
    assert got.tolerant is True and got.file == "aiak_training_llm/train.py"


def test_ov15_parser_boolean_optional_choices_nargs_and_parse_known_args(tmp_path):
    root = write(tmp_path, {"pyproject.toml": "", "llava/__init__.py": "", "llava/arguments.py": OV15_ARGUMENTS,
                            "llava/train/__init__.py": "", "llava/train/train.py": OV15_TRAIN})
    index = ci.contract_index(str(root))
    got = index.options_for(Entry(EntryKind.MODULE, "llava.train.train"))
    assert got.how is ci.How.IMPORTED and got.allow_abbrev is True
    by = {o.dest: o for o in got.options}
    assert by["image_resolution"].strings == ("--image-resolution",) and by["image_resolution"].type == "int"
    assert by["freeze_vit"].strings == ("--freeze-vit", "--no-freeze-vit")
    assert by["freeze_vit"].action == "BooleanOptionalAction"
    assert by["precision"].choices == ("bf16", "fp16", "fp32") and by["data_files"].nargs == "+"
    assert by["use_flash"].type == "str2bool"
    assert by["config"].positional and not by["precision"].positional
    assert index.tolerant("llava.train.train").tolerant is True
    # the same parser from the script's path, run from another folder
    assert index.options_for("/elsewhere/llava/train/train.py").parsers == got.parsers


def test_entry_file_that_builds_its_parser_and_union_fallback(tmp_path):
    root = write(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/train.py": OV15_ARGUMENTS,
                            "pkg/other.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--x')\n",
                            "pkg/bare.py": "print('no parser')\n"})
    index = ci.contract_index(str(root))
    own = index.options_for("pkg/train.py")
    assert own.how is ci.How.ENTRY_FILE and "--image-resolution" in own.strings() and "--x" not in own.strings()
    union = index.options_for("pkg/bare.py")
    assert union.how is ci.How.UNION and {"--x", "--image-resolution"} <= union.strings()
    missing = index.options_for("nowhere/train.py")
    assert missing.how is ci.How.NOT_FOUND and "--x" in missing.strings()
    assert "union" in missing.why
    untold = index.options_for(entry_of("torchrun", [None, "pkg/train.py"]))
    assert untold.how is ci.How.NOT_FOUND and "cannot be told" in untold.why


def test_entry_points_read_from_launch_words():
    assert entry_of("torchrun", ["--nproc_per_node", "8", "--standalone", "pkg/train.py", "--micro-batch-size", "1"]) \
        == Entry(EntryKind.SCRIPT, "pkg/train.py")
    assert entry_of("python", ["-u", "-m", "pkg.train", "--x"]) == Entry(EntryKind.MODULE, "pkg.train")
    assert entry_of("python3", ["-mpkg.train"]) == Entry(EntryKind.MODULE, "pkg.train")
    assert entry_of("torchrun", ["--nnodes=2", "-m", "--nproc_per_node", "8", "pkg.train"]) \
        == Entry(EntryKind.MODULE, "pkg.train")
    assert entry_of("deepspeed", ["--num_gpus", "8", "train.py", "--deepspeed", "ds.json"]) \
        == Entry(EntryKind.SCRIPT, "train.py")
    assert entry_of("torchrun", ["--nproc_per_node", None, "pkg/train.py"]) == Entry(EntryKind.SCRIPT, "pkg/train.py")
    assert entry_of("torchrun", ["--standalone", None, "pkg/train.py"]) is None
    assert entry_of("python", ["-c", "print(1)"]) is None


def test_launch_entries_resolve_in_the_workspace(tmp_path):
    root = megatron_workspace(tmp_path)
    index = ci.contract_index(str(root))
    for command, argv in (("torchrun", ["--nproc_per_node", "8", "aiak_training_llm/train.py"]),
                          ("python", ["aiak_training_llm/train.py"]),
                          ("deepspeed", ["--num_gpus", "8", "/opt/ov2/aiak_training_llm/train.py"])):
        got = index.options_for(entry_of(command, argv))
        assert got.file == "aiak_training_llm/train.py" and "--vision-tower" in got.strings()


# ---------------------------------------------------------------- the workspace, bounds, cache

def test_reads_of_and_names_over_a_workspace(tmp_path):
    index = ci.contract_index(str(megatron_workspace(tmp_path)))
    (bmr,) = index.reads_of("OFFLINE_PACKING_BMR")
    assert bmr.file.endswith("task_encoder.py") and bmr.parse is Parse.INT_EQ
    assert {"OFFLINE_PACKED_DATA", "TE_EXTRA_STATE_MISSING_CHECK", "MEGATRON_LOGGING_LEVEL"} <= index.names_read()
    assert "aiak_training_llm/train.py" not in index.files  # the pre-filter left it out


def test_bad_files_are_skipped_without_a_traceback(tmp_path, capsys):
    root = write(tmp_path, {"pyproject.toml": "", "ok.py": TASK_ENCODER,
                            "broken.py": "import os\nif int(os.environ.get('A', 0) == 1:\n",
                            "deep.py": "import os\nx = " + "(" * 300 + "os.environ.get('B')" + ")" * 300 + "\n"})
    (root / "latin1.py").write_bytes(b"import os\n# caf\xe9\nos.environ.get('C')\n")
    (root / "nul.py").write_bytes(b"import os\x00\nos.environ.get('D')\n")
    (root / "huge.py").write_bytes(b"import os\nos.environ.get('E')\n" + b"#" * (3 * 1024 * 1024))
    index = ci.contract_index(str(root))
    assert index.names_read() == {"OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA"}
    skipped = dict(index.skipped())
    assert set(skipped) >= {"broken.py", "latin1.py", "nul.py"}
    assert "syntax error" in skipped["broken.py"] and "UTF-8" in skipped["latin1.py"]
    assert "huge.py" not in index.files
    assert capsys.readouterr() == ("", "")


def test_cache_reuses_unchanged_files_and_sees_changes(tmp_path, monkeypatch):
    root = megatron_workspace(tmp_path)
    first = ci.contract_index(str(root))
    assert ci.contract_index(str(root)) is first  # nothing changed: the same index
    parsed = []
    real = reading.parse
    monkeypatch.setattr(reading, "parse", lambda data, whole: parsed.append(whole) or real(data, whole=whole))
    encoder = root / "aiak_training_llm/data/multimodal/task_encoder.py"
    encoder.write_text(TASK_ENCODER.replace("OFFLINE_PACKING_BMR", "OFFLINE_PACKING_VQA"))
    again = ci.contract_index(str(root))
    assert again is not first and len(parsed) == 1  # only the changed file is read again
    assert again.reads_of("OFFLINE_PACKING_VQA") and not again.reads_of("OFFLINE_PACKING_BMR")


def test_the_ov2_fixture_repository(tmp_path):
    index = ci.build(str(FIXTURES / "repo_ov2"))
    assert {r.parse for r in index.reads_of("OFFLINE_PACKING_BMR")} == {Parse.INT_EQ}
    assert index.names_read() == {"OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA"}
    got = index.options_for("aiak_training_llm/train.py")  # the fixture has no train.py
    assert got.how is ci.How.NOT_FOUND and got.options == ()


@pytest.mark.parametrize("text", [TASK_ENCODER, ENCODER_MODEL, CHECKPOINTING, TRANSFORMER_ENGINE])
def test_pieces_and_whole_agree_with_other_layouts(text):
    # the same code one level deeper (a method of a nested class) and with a decorator
    nested = "import os\n\nclass Outer:\n" + textwrap.indent(text.replace("import os\n", ""), "    ")
    both_ways(nested)


def test_module_entry_of_a_package_relative_imports_and_re_exports(tmp_path):
    root = write(tmp_path, {
        "pyproject.toml": "",
        "trainer/__init__.py": "from .args.common import add_common  # re-exported\n",
        "trainer/__main__.py": "from .cli import build\n\nbuild().parse_args()\n",
        "trainer/cli.py": "import argparse\nfrom . import add_common\nfrom .args import extra as ex\n\n"
                          "def build():\n    p = argparse.ArgumentParser(allow_abbrev=False)\n"
                          "    add_common(p)\n    ex.add_extra(p)\n    return p\n",
        "trainer/args/__init__.py": "",
        "trainer/args/common.py": "def add_common(parser):\n    parser.add_argument('--seed', type=int)\n",
        "trainer/args/extra.py": "def add_extra(parser):\n    g = parser.add_mutually_exclusive_group()\n"
                                 "    g.add_argument('--fp16', action='store_true')\n"
                                 "    g.add_argument('--bf16', action='store_true')\n",
    })
    index = ci.contract_index(str(root))
    got = index.options_for(Entry(EntryKind.MODULE, "trainer"))
    assert got.file == "trainer/__main__.py" and got.how is ci.How.IMPORTED
    assert {"--seed", "--fp16", "--bf16"} <= got.strings() and got.allow_abbrev is False
    assert index.resolve_function("trainer/cli.py", "add_common") == ("trainer/args/common.py", "add_common")
    assert got.tolerance.tolerant is None  # parse_args is called on build()'s result, not on a name
