"""PG010 unknown-option and PG011 option-value over a training tree of our own
(tests/fixtures/repo_contract, copied): the facts issue 28 measured on LLaVA-OneVision-2."""

import shutil
from pathlib import Path

import pytest

from packgate import Settings, analyze
from packgate.core.code import index as ci
from packgate.core.findings import Applicability
from packgate.core.text import apply_edits

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"
EN = Settings(lang="en")
OPTION_RULES = ("PG010", "PG011")
TRAIN = "torchrun --nproc_per_node 8 aiak_training_llm/train.py"


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    ci.invalidate()
    return root


def findings(root: Path, name: str, text: str | None = None, codes=OPTION_RULES, settings=EN):
    path = root / name
    if text is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    body = path.read_bytes().decode("utf-8")
    return [f for f in analyze(body, settings=settings, path=str(path)).findings if f.code in codes]


def where(f) -> tuple:
    return (f.code, f.line, f.column, f.end_line, f.end_column)


@pytest.mark.parametrize("name", ["stage_2_instruct_2b.sh", "stage_2_instruct_4b.sh"])
def test_both_image_resolution_launchers_are_flagged(repo, name):
    [f] = findings(repo, f"examples/quick_start/{name}")
    assert where(f) == ("PG010", 20, 5, 20, 23) and f.severity == "error"
    assert f.message.startswith("--image-resolution is not an option of the trainer's parser "
                                "(aiak_megatron/megatron/training/arguments.py:7)")
    assert "unrecognized arguments" in f.message and "no option it defines is spelled close to it" in f.message
    assert [x for x in f.fixes if x.kind == "fix"] == []  # nothing close enough to guess


def test_no_finding_on_any_option_the_code_defines(repo):
    found = [(p.name, f.code, f.message) for p in sorted((repo / "examples").rglob("*.sh"))
             for f in findings(repo, str(p.relative_to(repo)))]
    assert [(n, c) for n, c, _ in found] == [("stage_2_instruct_2b.sh", "PG010"), ("stage_2_instruct_4b.sh", "PG010")]
    assert all("--image-resolution" in m for _, _, m in found)
    # and each option the trainer defines, with a value its type= and choices= take
    every = ("--micro-batch-size 2 --global-batch-size 64 --seq-length 4096 --lr 1e-3 --train-iters 10 "
             "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 --attention-backend auto "
             "--apply-query-key-layer-scaling --use-torch-fsdp2 --overlap-grad-reduce --bf16 "
             "--data-path /a /b --save /ckpt --load=/ckpt --log-interval 5 --use-distributed-optimizer "
             "--no-use-distributed-optimizer --packing-sft-data --packing-pretrain-data --image-size 448 "
             "--max-num-tiles 12 --vision-model-type siglip --freeze-vit -h")
    assert findings(repo, "examples/all.sh", f"{TRAIN} {every}\n") == []


@pytest.mark.parametrize("allow, word, expected", [
    ("False", "--seq-len", ("PG010", "refused")),
    ("False", "--micro-batch", ("PG010", "refused")),
    ("False", "--use", ("PG010", "refused-several")),
    ("True", "--seq-len", None),
    ("True", "--micro", None),
    ("True", "--use", ("PG010", "ambiguous")),
])
def test_abbreviations_as_argparse_takes_them(repo, allow, word, expected):
    args = repo / "aiak_megatron/megatron/training/arguments.py"
    args.write_text(args.read_text().replace("allow_abbrev=False", f"allow_abbrev={allow}"))
    found = findings(repo, "examples/abbrev.sh", f"{TRAIN} {word} 8\n")
    if expected is None:
        assert found == []
        return
    [f] = found
    assert f.code == expected[0] and where(f)[1:3] == (1, len(TRAIN) + 2)
    if expected[1] == "refused-several":  # allow_abbrev=False: unrecognized, not ambiguous; no fix to pick
        assert "abbreviates --use-torch-fsdp2 or --use-distributed-optimizer" in f.message
        assert "unrecognized arguments" in f.message and [x for x in f.fixes if x.kind == "fix"] == []
    elif expected[1] == "refused":
        assert "allow_abbrev=False" in f.message
        [fix] = [x for x in f.fixes if x.kind == "fix"]
        assert fix.applicability is Applicability.SAFE
        fixed = apply_edits(f"{TRAIN} {word} 8\n".encode(), fix.edits).decode()
        assert findings(repo, "examples/abbrev.sh", fixed) == []
    else:
        assert "--use-torch-fsdp2, --use-distributed-optimizer" in f.message and "ambiguous option" in f.message


def test_a_close_spelling_is_suggested_and_its_fix_is_a_guess(repo):
    [f] = findings(repo, "examples/typo.sh", f"{TRAIN} --micro-batch-sise 1\n")
    assert "did you mean --micro-batch-size?" in f.message
    [fix] = [x for x in f.fixes if x.kind == "fix"]
    assert fix.applicability is Applicability.UNSAFE and not fix.preferred
    assert apply_edits(f"{TRAIN} --micro-batch-sise 1\n".encode(), fix.edits).decode() == \
        f"{TRAIN} --micro-batch-size 1\n"


def test_a_tolerant_parser_is_silent(repo):
    assert ci.contract_index(str(repo)).options_for("tools/convert.py").tolerance.tolerant is True
    assert findings(repo, "tools/run.sh", "python tools/convert.py --input x --bogus 1 --inptu y\n") == []


def test_the_union_is_a_warning_and_says_so(tmp_path):
    root = tmp_path / "union"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / "pkg/args.py").write_text("import argparse\n\ndef build():\n    p = argparse.ArgumentParser()\n"
                                      "    p.add_argument('--seq-length', type=int)\n    return p.parse_args()\n")
    (root / "pkg/train.py").write_text("def main():\n    from pkg.args import build\n    build()\n")
    [f, g] = findings(root, "run.sh", "python pkg/train.py --image-resolution 5 --seq-length 8k\n")
    assert (f.code, f.severity, g.code, g.severity) == ("PG010", "warning", "PG011", "warning")
    assert "the union of the workspace's options was checked" in f.message
    # the fixture's union is silent: tools/convert.py lets unknown arguments through
    assert ci.contract_index(str(root)).options_for("pkg/train.py").how is ci.How.UNION


def test_the_fixture_union_is_silent_because_a_parser_there_is_tolerant(repo):
    (repo / "aiak_training_llm/bare_train.py").write_text("print('no parser reached')\n")
    assert findings(repo, "examples/bare.sh", "torchrun aiak_training_llm/bare_train.py --nope 1\n") == []


def test_values_the_type_or_the_choices_reject(repo):
    [f] = findings(repo, "examples/mbs.sh", f"{TRAIN} --micro-batch-size abc\n")
    assert where(f) == ("PG011", 1, len(TRAIN) + 21, 1, len(TRAIN) + 24) and f.severity == "error"
    assert "int('abc') raises" in f.message
    [f] = findings(repo, "examples/attn.sh", f"{TRAIN} --attention-backend=flashy\n")
    assert where(f)[1:3] == (1, len(TRAIN) + 22)
    [g] = findings(repo, "examples/attn2.sh", f"{TRAIN} --attention-backend flashy --bf16\n")
    assert where(g) == ("PG011", 1, len(TRAIN) + 22, 1, len(TRAIN) + 28) and g.message == f.message
    assert "flashy is not one of the choices of --attention-backend (flash, fused, unfused, local, auto)" in f.message


@pytest.mark.parametrize("words, bad", [
    ("--lr 1e-3 --micro-batch-size 1e3", ["1e3"]),  # int('1e3') raises, float('1e-3') does not
    ("--micro-batch-size ' 4' --lr inf --seq-length +8", []),  # what int() and float() take
    ("--micro-batch-size 1_000 --lr 1.5.0", ["1.5.0"]),
    ("--data-path a b --image-size x --max-num-tiles 2", ["x"]),
    ("--vision-model-type RICE", ["RICE"]),
    ('--micro-batch-size "$MBS" --lr "${LR}"', []),  # values packgate cannot know
])
def test_python_decides_what_a_value_is(repo, words, bad):
    found = findings(repo, "examples/v.sh", f"{TRAIN} {words}\n", codes=("PG011",))
    assert [f.message.split(" ")[0] for f in found] == bad


def test_a_default_the_caller_may_override_is_judged_where_it_is_written(repo):
    [f] = findings(repo, "examples/d.sh", 'MBS=${MBS:-four}\n' + f"{TRAIN} --micro-batch-size $MBS\n")
    assert where(f) == ("PG011", 1, 12, 1, 16)


def test_hydra_overrides_and_positional_words_are_not_options(repo):
    text = f"{TRAIN} train.micro_batch_size=1 optimizer.lr=1e-4 +model=big\n"
    assert findings(repo, "examples/h.sh", text) == []


def test_the_launchers_own_options_are_never_checked_against_the_trainer(repo):
    text = ("torchrun --nproc_per_node 8 --nproc-per-nod 2 --rdzv-backend c10d --max-restarts 3 "
            "--standalone aiak_training_llm/train.py --bf16\n"
            "python -u -W ignore aiak_training_llm/train.py --bf16\n"
            "deepspeed --hostfile h --num_gpus 8 aiak_training_llm/train.py --bf16\n"
            "python -m torch.distributed.run --nproc_per_node 2 aiak_training_llm/train.py --bf16 --nope\n")
    [f] = findings(repo, "examples/l.sh", text)
    assert (f.line, "--nope" in f.message) == (4, True)


def test_positions_are_exact_after_wide_characters_tabs_and_crlf(repo):
    text = ("#!/bin/bash\n# 第二阶段：中文注释 😀\r\n\tX=1\r\n"
            "ARGS=(\n\t--bf16\t--image-resolution 1000  # 旧选项\n)\n"
            f"{TRAIN} \"${{ARGS[@]}}\" \\\n\t--micro-batch-size 1x\n")
    found = findings(repo, "examples/p.sh", text)
    assert [where(f) for f in found] == [("PG010", 5, 9, 5, 27), ("PG011", 8, 21, 8, 23)]


def test_words_packgate_cannot_know_end_certainty(repo):
    text = f'{TRAIN} --bf16 $EXTRA --image-resolution 5 "$@" --seq-length 8k\n'
    # the parser has no positional argument: an unknown word cannot take an option word after it
    assert [f.code for f in findings(repo, "examples/u.sh", text)] == ["PG010", "PG011"]
    text = f"{TRAIN} --micro-batch-size $UNKNOWN 8 --bf16\n"
    assert findings(repo, "examples/u2.sh", text) == []


def test_every_path_is_considered_and_each_word_reported_once(repo):
    text = ('if [ "$STAGE" = 1 ]; then\n  OPT=--image-size\nelse\n  OPT=--image-resolution\nfi\n'
            f'{TRAIN} $OPT 448 --image-resolution 1\n{TRAIN} --seq-length "$LEN"\n')
    found = findings(repo, "examples/paths.sh", text)
    assert sorted(where(f) for f in found) == [("PG010", 4, 7, 4, 25), ("PG010", 6, len(TRAIN) + 11, 6, len(TRAIN) + 29)]


def test_helpers_outside_the_workspace_make_the_parser_unknowable(repo):
    args = repo / "aiak_megatron/megatron/training/arguments.py"
    args.write_text("import deepspeed\n" + args.read_text().replace(
        "    parser = _add_training_args(parser)\n",
        "    parser = _add_training_args(parser)\n    parser = deepspeed.add_config_arguments(parser)\n"))
    text = f"{TRAIN} --deepspeed --deepspeed_config ds.json --micro-batch-size x\n"
    assert [f.code for f in findings(repo, "examples/ds.sh", text)] == ["PG011"]


def test_no_finding_without_training_code():
    text = f"{TRAIN} --image-resolution 1000 --micro-batch-size abc\n"
    assert [f for f in analyze(text, settings=EN).findings if f.code in OPTION_RULES] == []


def test_messages_in_chinese(repo):
    [f] = findings(repo, "examples/quick_start/stage_2_instruct_2b.sh", settings=Settings(lang="zh"))
    assert "不是训练程序解析器" in f.message and "unrecognized arguments" in f.message


@pytest.mark.parametrize("typo, meant", [
    ("--seq-lenght", ["--seq-length"]),  # two letters swapped
    ("--micro-bach-sise", ["--micro-batch-size"]),  # two slips in a long name
    ("--bf61", ["--bf16"]),
    ("--lodd", ["--load"]),
    ("--image-resolution", []),  # not a typo of --image-size: nothing is guessed
    ("--saev", ["--save"]),
])
def test_did_you_mean_names_what_a_typo_could_have_made(repo, typo, meant):
    [f] = findings(repo, "examples/t.sh", f"{TRAIN} {typo} 1\n")
    if meant:
        assert f"did you mean {' or '.join(meant)}?" in f.message
    else:
        assert "no option it defines is spelled close to it" in f.message


@pytest.mark.parametrize("entry", ["from transformers import HfArgumentParser\n", "import sys\nprint(sys.argv)\n"])
def test_no_union_for_an_entry_that_reads_its_command_line_another_way(tmp_path, entry):
    root = tmp_path / "hf"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "tool.py").write_text("import argparse\np = argparse.ArgumentParser()\n"
                                  "p.add_argument('--seq-length', type=int)\np.parse_args()\n")
    (root / "train.py").write_text(entry)
    assert findings(root, "run.sh", "torchrun train.py --model_name_or_path m --seq-length x\n") == []


@pytest.mark.parametrize("words, where_, expected", [
    ("--micro-batch-size --bf16", (1, len(TRAIN) + 2, 1, len(TRAIN) + 20), "expected one argument"),
    ("--bf16 --lr", (1, len(TRAIN) + 9, 1, len(TRAIN) + 13), "expected one argument"),
    ("--bf16=1", (1, len(TRAIN) + 9, 1, len(TRAIN) + 10), "ignored explicit argument '1'"),
    ("--lr -1 --data-path", None, None),  # a negative number is a value; nargs="*" takes none
    ('--lr "$LR" --bf16', None, None),
])
def test_values_an_option_does_not_get_or_cannot_take(repo, words, where_, expected):
    found = findings(repo, "examples/m.sh", f"{TRAIN} {words}\n", codes=("PG011",))
    if where_ is None:
        assert found == []
        return
    [f] = found
    assert where(f)[1:] == where_ and expected in f.message


def test_the_banded_distance_is_the_full_one_up_to_its_limit():
    """pg010's _distance computes only the cells near the diagonal; a plain table says the same."""
    import random
    from packgate.core.rules.pg010_unknown_option import _distance

    def full(a, b):
        d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
        for i in range(1, len(a) + 1):
            for j in range(1, len(b) + 1):
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
                if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        return d[-1][-1]

    rng = random.Random(28)
    for _ in range(3000):
        a, b = ("".join(rng.choice("ab-") for _ in range(rng.randint(0, 7))) for _ in range(2))
        for limit in (1, 2):
            assert _distance(a, b, limit) == min(full(a, b), limit + 1), (a, b, limit)


def test_an_option_glued_to_a_value_the_script_cannot_know(repo):
    """`--data-pth="$DATA"` (and unquoted): the word's literal start names the option, whatever
    the caller's value; a defined one is no finding."""
    text = (f"#!/bin/bash\n{TRAIN} \\\n    --micro-batch-size 1 --data-pth=\"$1\" --save=$CKPT/run \\\n"
            "    --data-path=\"${DATA:-/d}\" --lr=$2\n")
    found = findings(repo, "examples/glued.sh", text)
    assert [(f.code, f.line, f.column, f.end_column) for f in found] == [("PG010", 3, 26, 36)]
    assert found[0].message.startswith("--data-pth is not an option of the trainer's parser")
