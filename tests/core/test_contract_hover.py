"""The editor's launch contract from the core: hover, definition, completion and references on
any variable or trainer option, over a copy of tests/fixtures/repo_contract."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from packgate import Settings, analyze
from packgate.core.code.index import invalidate
from packgate.core.contract_hover import expression
from packgate.core.navigation import assignments, completions, definition, name_at

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"
EN = Settings(lang="en")
# what comes before the word in the position tests: a Chinese comment, an emoji, a tab, CRLF ends
AWKWARD = "# 中文注释 😀\r\n\t"


@pytest.fixture()
def repo(tmp_path) -> Path:
    target = tmp_path / "repo"
    shutil.copytree(FIXTURE, target)
    yield target
    invalidate(str(target))


def launcher(repo: Path, name: str, text: str | None = None):
    """An analysis of a fixture launcher (or of text written beside them)."""
    path = repo / "examples" / "quick_start" / name
    if text is not None:
        path.write_text(text, encoding="utf-8", newline="")
    return analyze(path.read_text(encoding="utf-8"), path=str(path), settings=EN)


def at(a, word: str, shift: int = 2, nth: int = 0) -> int:
    i = -1
    for _ in range(nth + 1):
        i = a.source.data.index(word.encode(), i + 1)
    return i + shift


def line_of(path: str, line: int) -> str:
    return Path(path).read_text(encoding="utf-8").splitlines()[line]


def test_hover_on_a_variable_says_where_the_code_reads_it_how_and_what_the_launch_gives(repo):
    a = launcher(repo, "stage_1_alignment.sh")
    body, start, end = a.hover(at(a, "ENABLE_SWANLAB"), "both")
    assert a.source.data[start:end] == b"ENABLE_SWANLAB"
    assert "aiak_training_llm/models/encoder.py:13" in body and '`v == "1"`' in body
    link = (repo / "aiak_training_llm" / "models" / "encoder.py").resolve().as_uri() + "#L13"
    assert f"]({link})" in body  # a link the client opens at the line
    assert "`\"0\"`" in body  # the default
    assert "- torchrun (line 16): `'true'`, from line 5" in body  # what this launch gives it
    assert "字符串比较" in body and "第 16 行" in body  # and in Chinese
    en, _, _ = a.hover(at(a, "ENABLE_SWANLAB"), "en")
    assert "字符串比较" not in en
    plain, _, _ = a.hover(at(a, "ENABLE_SWANLAB"), "zh", markdown=False)
    assert "|" not in plain and "`" not in plain and "encoder.py:13 (file://" in plain


def test_hover_on_a_name_no_code_reads_and_on_an_unexported_expansion(repo):
    a = launcher(repo, "stage_2_instruct_2b.sh")
    body, _, _ = a.hover(at(a, "PYTORCH_CUDA_ALLOC_CONF", nth=1), "en")
    assert "No Python code in the workspace reads it" in body
    assert "`'garbage_collection_threshold:0.72'`, from line 7" in body  # the second export wins
    b = launcher(repo, "unexported.sh", "ENABLE_SWANLAB=1\ntorchrun aiak_training_llm/train.py \"$ENABLE_SWANLAB\"\n")
    body, start, end = b.hover(at(b, "$ENABLE_SWANLAB", shift=2), "both")
    assert b.source.data[start:end] == b"ENABLE_SWANLAB"
    assert "assigned on line 1 but never exported: the trainer sees it only when the name came exported" in body
    assert "第 1 行赋值但从未导出" in body


def test_hover_on_a_trainer_option_shows_its_parser_type_and_value(repo):
    a = launcher(repo, "stage_1_alignment.sh")
    body, start, end = a.hover(at(a, "--micro-batch-size"), "en")
    assert a.source.data[start:end] == b"--micro-batch-size"
    assert "cu_lengths.shape[0] == 1" in body  # today's hover stays
    assert "aiak_megatron/megatron/training/arguments.py:18" in body and "| Type | `int` |" in body
    assert "found from the launch's entry point" in body and "allow_abbrev=False" in body
    assert "- torchrun (line 16): `'4'`" in body
    body, _, _ = a.hover(at(a, "--attention-backend"), "both")
    assert "`flash`, `fused`, `unfused`, `local`, `auto`" in body and "`'auto'`" in body
    assert "可选值" in body
    body, _, _ = a.hover(at(a, "--freeze-vit"), "en")
    assert "aiak_training_llm/arguments.py:11" in body and "switch (`store_true`)" in body and "given" in body


def test_hover_on_an_option_no_parser_defines(repo):
    a = launcher(repo, "stage_2_instruct_2b.sh")
    body, _, _ = a.hover(at(a, "--image-resolution"), "both")
    assert "No parser of this launch defines it." in body and "这个启动命令的解析器没有定义它" in body
    assert "`'1000'`" in body
    # a launcher's own option (before the entry point) is not the trainer's
    assert a.hover(at(a, "--nproc_per_node"), "en") is None


def test_hover_with_the_parser_of_the_entry_file_its_help_and_tolerance(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "train.py").write_text(
        "import argparse\nimport os\n\nLEVEL = int(os.environ.get('LOG_LEVEL', 2))\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--foo', type=int, default=3, help='how many foos\\n   to make')\n"
        "args, rest = p.parse_known_args()\n")
    script = tmp_path / "run.sh"
    script.write_text("python train.py --foo 5 --bar\n")
    a = analyze(script.read_text(), path=str(script), settings=EN)
    try:
        body, _, _ = a.hover(at(a, "--foo"), "en")
        assert "| Help | how many foos to make |" in body and "| Default | `3` |" in body
        assert "train.py builds its parser" in body and "unknown options are let through" in body
        body, _, _ = a.hover(at(a, "--bar"), "en")
        assert "No parser of this launch defines it." in body
    finally:
        invalidate(str(tmp_path))


def test_no_contract_hover_without_project_code():
    a = analyze("export ENABLE_SWANLAB=1\ntorchrun train.py --lr 1\n", settings=EN)
    assert a.hover(at(a, "ENABLE_SWANLAB"), "en") is None
    assert a.hover(at(a, "--lr"), "en") is None
    other = analyze("export SCATTER_BEFORE_PATCH_EMBED=1\ntorchrun train.py\n", settings=EN)
    body, _, _ = other.hover(at(other, "SCATTER"), "en")
    assert "Read as" in body and "How the workspace" not in body  # today's text alone


def test_the_gate_hover_keeps_its_truth_table_inside_a_project(repo):
    a = launcher(repo, "stage_2_instruct_2b.sh")
    body, _, _ = a.hover(at(a, "OFFLINE_PACKING_BMR"), "en")
    assert "| | OFFLINE_PACKING_BMR | OFFLINE_PACKED_DATA | Result |" in body and "What each launch sees" in body
    assert "How the workspace" not in body


def test_positions_after_chinese_an_emoji_a_tab_and_crlf(repo):
    text = (AWKWARD + "export SCATTER_BEFORE_PATCH_EMBED=true\r\n" + AWKWARD +
            "torchrun aiak_training_llm/train.py \\\r\n\t--seq-length 8\r\n")
    a = launcher(repo, "awkward.sh", text)
    body, start, end = a.hover(at(a, "SCATTER"), "en")
    assert a.source.data[start:end] == b"SCATTER_BEFORE_PATCH_EMBED" and "encoder.py:5" in body
    body, start, end = a.hover(at(a, "--seq-length"), "en")
    assert a.source.data[start:end] == b"--seq-length" and "arguments.py:20" in body


def test_definition_of_an_option_lands_on_its_add_argument(repo):
    a = launcher(repo, "stage_2_instruct_2b.sh")
    [loc] = definition(a, at(a, "--seq-length"))
    assert loc.path.endswith("aiak_megatron/megatron/training/arguments.py") and loc.line == 19
    text = line_of(loc.path, loc.line)
    assert "add_argument" in text and text[loc.column:loc.end_column] == "--seq-length"


def test_definition_of_a_variable_script_first_on_an_expansion_then_the_code(repo):
    text = ("export ENABLE_SWANLAB=1\necho \"$ENABLE_SWANLAB\"\n"
            "torchrun aiak_training_llm/train.py --lr 1\n")
    a = launcher(repo, "echo.sh", text)
    on_expansion = definition(a, at(a, "$ENABLE", shift=3))
    assert [l.path for l in on_expansion][0] is None  # the script's assignment first
    assert a.source.slice(on_expansion[0].start, on_expansion[0].end) == "ENABLE_SWANLAB"
    code = on_expansion[1]
    assert code.path.endswith("encoder.py") and code.line == 12
    assert line_of(code.path, code.line)[code.column:code.end_column] == "ENABLE_SWANLAB"
    on_export = definition(a, at(a, "ENABLE_SWANLAB"))
    assert on_export == [code]  # an assignment's definition is the code that reads it


def test_definition_with_several_reads_lists_them_all(repo):
    a = launcher(repo, "stage_2_instruct_2b.sh")
    locs = definition(a, at(a, "CUDA_DEVICE_MAX_CONNECTIONS"))
    assert [(Path(l.path).name, l.line + 1) for l in locs] == [("arguments.py", 41), ("arguments.py", 44)]


def test_completion_of_options_after_the_entry_point(repo):
    text = ("# 中文 😀\n\texport X=1\ntorchrun --nproc_per_node 8 aiak_training_llm/train.py \\\n"
            "    --bf16 --mic\n")
    a = launcher(repo, "typing.sh", text)
    offset = len(a.source.data) - 1
    items = completions(a, offset, "en")
    by = {c.label: c for c in items}
    mbs = by["--micro-batch-size"]
    assert mbs.kind == "option" and mbs.detail == "int" and "arguments.py:18" in mbs.documentation
    assert a.source.data[mbs.replace[0]:mbs.replace[1]] == b"--mic"
    assert by["--vision-model-type"].detail == "text {siglip, rice, qwen2vit}"
    assert by["--freeze-vit"].detail == "switch"
    assert "--no-use-distributed-optimizer" in by and "--help" not in by
    typed = launcher(repo, "value.sh", "torchrun aiak_training_llm/train.py --seq-length=4\n")
    assert completions(typed, typed.source.data.index(b"=4") + 1, "en") == []  # a value, not an option
    # the launcher's own words are not the trainer's, and neither are a comment or a string
    assert completions(a, at(a, "--nproc", shift=5), "en") == []
    for other in ("# torchrun aiak_training_llm/train.py --mic\n", "echo \"--mic\"\n"):
        b = launcher(repo, "other.sh", other)
        assert completions(b, b.source.data.index(b"--mic") + 5, "en") == []


def test_completion_of_variable_names_the_code_reads(repo):
    a = launcher(repo, "names.sh", "export SCA\n# export SCA\necho \"export SCA\n\"\nSCA\n")
    labels = [c.label for c in completions(a, len("export SCA"), "en")]
    assert labels[:3] == ["OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA"]
    assert "SCATTER_BEFORE_PATCH_EMBED" in labels and "TE_EXTRA_STATE_MISSING_CHECK" in labels
    scatter = next(c for c in completions(a, len("export SCA"), "both") if c.label == "SCATTER_BEFORE_PATCH_EMBED")
    assert scatter.detail == 'aiak_training_llm/models/encoder.py:5 · v == "1"'
    assert "字符串比较" in scatter.documentation and "a string compare" in scatter.documentation
    assert completions(a, at(a, "SCA", shift=3, nth=1), "en") == []  # in a comment
    assert completions(a, at(a, "SCA", shift=3, nth=2), "en") == []  # in a string
    assert "SCATTER_BEFORE_PATCH_EMBED" in [c.label for c in completions(a, at(a, "SCA", shift=3, nth=3), "en")]


def test_references_data_for_any_variable(repo):
    for name in ("stage_1_alignment.sh", "stage_2_instruct_2b.sh", "stage_2_instruct_4b.sh"):
        a = launcher(repo, name)
        found = assignments(a, "PYTORCH_CUDA_ALLOC_CONF")
        assert [a.source.slice(l.start, l.end) for l in found] == ["PYTORCH_CUDA_ALLOC_CONF"] * 2
        assert name_at(a, at(a, "PYTORCH_CUDA_ALLOC_CONF")) == "PYTORCH_CUDA_ALLOC_CONF"
    assert name_at(a, at(a, "torchrun")) is None


def test_parse_expressions():
    from packgate.core.code.envreads import Default, EnvRead, Parse

    def read(parse, values=(), negated=False):
        return EnvRead("X", parse, values, negated, Default.NONE, None, "f.py", 1, 1, 1)

    assert expression(read(Parse.INT_EQ, (1,))) == "int(v) == 1"
    assert expression(read(Parse.INT_EQ, (0, 1), True)) == "int(v) not in {0, 1}"
    assert expression(read(Parse.UPPER_IN, ("A", "B"), True)) == 'v.upper() not in {"A", "B"}'
    assert expression(read(Parse.STR_NE, ("1",), True)) == 'v != "1"'
    assert expression(read(Parse.PRESENCE)) == '"X" in os.environ'
    assert expression(read(Parse.BOOL_INT)) == "bool(int(v))"


def test_the_trainer_words_of_a_module_entry_and_of_an_unknown_one(repo):
    a = launcher(repo, "module.sh", "python -u -m aiak_training_llm.train --lr 1\n")
    body, _, _ = a.hover(at(a, "--lr"), "en")
    assert "arguments.py:21" in body and "found from the launch's entry point" in body
    assert a.hover(at(a, "-u", shift=1), "en") is None  # python's own switch
    b = launcher(repo, "unknown.sh", "torchrun --nproc_per_node 8 \"$ENTRY\" --lr 1\n")
    body, _, _ = b.hover(at(b, "--lr"), "en")
    assert "arguments.py:21" in body and "not found from the launch's entry point" in body
    assert "the union of the workspace's options" in body


def test_a_shell_variable_no_code_reads_and_no_launch_sees_gets_no_launch_values(repo):
    text = "for i in 1 2; do echo \"$i\"; done\necho \"$TE_EXTRA_STATE_MISSING_CHECK\"\n" \
           "torchrun aiak_training_llm/train.py --lr 1\n"
    a = launcher(repo, "loop.sh", text)
    body, _, _ = a.hover(at(a, "$i", shift=1), "en")
    assert "No Python code in the workspace reads it" in body and "What each launch gives it" not in body
    body, _, _ = a.hover(at(a, "TE_EXTRA"), "en")  # read by the code: what the launch gets matters
    assert "`int(v)`" in body and "not set by the script: the trainer sees the caller's value, if any" in body


def test_help_of_a_union_has_no_line_to_link(repo):
    a = launcher(repo, "help.sh", "torchrun \"$ENTRY\" --help\n")
    body, _, _ = a.hover(at(a, "--help"), "en")
    assert "argparse's own (add_help)" in body and "](" not in body


def test_an_option_written_with_its_value_after_an_equals_sign(repo):
    a = launcher(repo, "equals.sh", "ARGS=(--seq-length=8192)\ntorchrun aiak_training_llm/train.py \"${ARGS[@]}\"\n")
    body, start, end = a.hover(at(a, "--seq-length"), "en")
    assert a.source.data[start:end] == b"--seq-length"  # the option, not its value
    assert "arguments.py:20" in body and "- torchrun (line 2): `'8192'`" in body
    [loc] = definition(a, at(a, "--seq-length"))
    assert loc.line == 19


@pytest.mark.parametrize("text,inside", [
    ("export A # c", True), ("echo 'a b", True), ("echo 'a' b", False), ('echo "a \\" b', True),
    ('echo "a" b', False), ("echo a#b x", False), ("x # c\nexport A", False), ("echo \\# x", False),
    ('echo "$(x)" ', False), ("cat <<'E'\n'\nE\nexport A", False), ("echo 'x\ny' \nexport A", False),
])
def test_comments_and_strings_completion_stays_out_of(text, inside):
    from packgate.core.navigation import in_comment_or_string
    assert in_comment_or_string(analyze(text), len(text.encode())) is inside


def test_an_option_with_several_values(repo):
    a = launcher(repo, "many.sh", "torchrun aiak_training_llm/train.py --data-path a b --bf16\n")
    body, _, _ = a.hover(at(a, "--data-path"), "en")
    assert "| nargs | `*` |" in body and "- torchrun (line 1): `'a b'`" in body


def test_an_abbreviation_where_the_parser_allows_them(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "train.py").write_text(
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('--seq-length', type=int)\np.add_argument('--seed', type=int)\np.parse_args()\n")
    script = tmp_path / "run.sh"
    script.write_text("python train.py --seq-l 8 --se 1\n")
    a = analyze(script.read_text(), path=str(script), settings=EN)
    try:
        body, _, _ = a.hover(at(a, "--seq-l"), "en")
        assert "takes it for `--seq-length`" in body and "train.py:3" in body and "`'8'`" in body
        [loc] = definition(a, at(a, "--seq-l"))
        assert loc.line == 2
        body, _, _ = a.hover(at(a, "--se "), "en")
        assert "it begins `--seq-length`, `--seed`: argparse stops with \"ambiguous option\"" in body
        assert definition(a, at(a, "--se ")) == []
    finally:
        invalidate(str(tmp_path))


def test_no_abbreviation_where_the_parser_refuses_them(repo):
    a = launcher(repo, "abbrev.sh", "torchrun aiak_training_llm/train.py --seq-len 8\n")
    body, _, _ = a.hover(at(a, "--seq-len"), "en")
    assert "No parser of this launch defines it." in body and "takes it for" not in body
