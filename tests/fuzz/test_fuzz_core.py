"""The core under mutated input: no exception, ranges inside the document on character
boundaries, positions that convert in every encoding, fixes that parse and do not add findings
of their rule, and the same findings for the same input."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fuzz_corpus import (CORPUS, LONG, TOKENS, corpus_files, examples, fuzz_project, mutated,
                         text_with_oddities, wrapped)
from fuzz_props import (
    EN, boundaries, check_all, check_fix_all, check_fixes, check_hover_everywhere, check_positions,
    check_ranges, fingerprint,
)
from packgate.core.engine import analyze
from packgate.core.settings import LANGS, PROFILES, Settings

FILES = corpus_files()
IDS = [str(p.relative_to(p.parents[1])) for p in FILES]


@pytest.mark.parametrize("data", CORPUS, ids=IDS)
def test_corpus_file(data):
    """The unmutated seeds themselves, every property, positions at every character boundary."""
    text = data.decode("utf-8", "replace")
    check_all(text, bash=True)  # every fix of a seed must also pass `bash -n`
    check_positions(analyze(text, settings=EN), boundaries(text))


# Inputs that once failed (kept so they are tried on every run, whatever the seed finds).
@example(text="$((#!/bin/bash\nexport OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\n"
              "torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size 1\n")
@example(text="!!/bin/bash\ndxport OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'\n\n"
              "torchrun --nproc_per_node 8 aiak_training_llm/train.py \\\n    --micro-batch-size 1\n")
@example(text="#!/bin/bash\nexport[[  OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKED_DATA=1\n"
              "\ntorchrun --nproc_per_node 8 aiak_training_llm/train.py \\\n    --micro-batch-size 1\n")
@example(text="#!\x00.bin/bash\nexport OFFLINE_PACKED_DATA=1\n\ndocker run --rm -e OFFLINE_PACKING_BMR=1 \\\n"
              "    llava:latest bash -lc \"torchrun aiak_training_llm/train.py --micro-batch-size 1\"\n")
@example(text="OFFLINE_PACKING_BMR=1 \\\nPYTHONPATH=\"$A:$A/Megatron-LM\" \\")
@example(text="}|#!/bin/bash\n# c\nexport OFFLINE_PACKED_DATA=1\n\ndocker run --rm -e OFFLINE_PACKING_BMR=1 \\\n"
              "    llava:latest bash -lc \"torchrun aiak_training_llm/train.py --micro-batch-size 1\"\n")
# the file's end judged on a last line that starts with a blank: its disable comment must cover it
@example(text="#!/bin/bash\n[[ -d \"$1\" ]] || { exit 1; }\nexport OFFLINE_PACKING_BMR=1\n"
              "\x08torchrun aiak_training_llm/train.py \\\n    --micro-batch-size\r\n 1\n")
@pytest.fixture(scope="module")
def script_path(tmp_path_factory) -> str:
    return str(fuzz_project(tmp_path_factory.mktemp("fuzz-project")))


@given(text=mutated())
@examples(short=300, long=5000)
def test_mutated_corpus(script_path, text):
    """As `packgate check` analyses a file: with its path, following `source`. The long run also
    asks `bash -n` about every safe fix of a text bash accepts."""
    check_all(text, path=script_path, bash=LONG)


@given(text=wrapped())
@examples(short=100, long=2000)
def test_statements_wrapped_in_constructs(script_path, text):
    check_all(text, path=script_path, bash=LONG)


@given(text=text_with_oddities(),
       settings=st.builds(Settings, profile=st.sampled_from(PROFILES), lang=st.sampled_from(LANGS)))
@examples(short=100, long=2000)
def test_mutated_corpus_any_settings(text, settings):
    check_all(text, settings, fixes=False)
    analysis = analyze(text, settings=settings)
    check_positions(analysis, boundaries(text))


@given(text=mutated(min_ops=8, max_ops=30))
@examples(short=60, long=1000)
def test_heavily_mutated(text):
    check_all(text)


# Truncation at every byte offset (on and off character boundaries). The short run takes the
# examples/ scripts and every corpus file at a stride; the long run every offset of every file.
def _truncations():
    for path, data in zip(FILES, CORPUS):
        rel = str(path.relative_to(path.parents[1]))
        if LONG or path.parent.name == "examples":
            yield pytest.param(data, 1, id=rel)
        else:
            yield pytest.param(data, 31, id=rel)


@pytest.mark.parametrize("data,stride", list(_truncations()))
def test_truncated_at_every_offset(data, stride):
    for cut in range(0, len(data) + 1, stride):
        text = data[:cut].decode("utf-8", "replace")
        analysis = analyze(text, settings=EN)
        check_ranges(analysis)
        if LONG:
            check_fixes(analysis, disable_too=False)
            check_fix_all(analysis)


@pytest.mark.parametrize("data", CORPUS[:10] if not LONG else CORPUS, ids=IDS[:10] if not LONG else IDS)
def test_hover_every_offset_after_each_token(data):
    """Hover at every offset after inserting a NUL, a BOM, a CR and an emoji in the middle."""
    for token in ("\0", "\ufeff", "\r", "😀", "\u2028", "中"):
        text = data.decode("utf-8", "replace")
        mid = len(text) // 2
        analysis = analyze(text[:mid] + token + text[mid:], settings=EN)
        check_hover_everywhere(analysis)


def test_determinism_across_settings_objects():
    """Equal settings give equal findings, whether or not an analysis ran in between."""
    first = [fingerprint(analyze(d.decode("utf-8", "replace"), settings=Settings(lang="en"))) for d in CORPUS]
    for d in CORPUS[::7]:
        analyze(d.decode("utf-8", "replace"), settings=Settings(lang="zh", profile="ov15"))
    second = [fingerprint(analyze(d.decode("utf-8", "replace"), settings=Settings(lang="en"))) for d in CORPUS]
    assert first == second


def test_determinism_across_processes(tmp_path):
    """The same files give the same report in two processes with different hash seeds (set and
    dict order must never leak into findings, fixes or their order)."""
    import random
    import subprocess
    import sys

    from rawlsp import server_env

    rnd = random.Random(5)
    for i, data in enumerate(CORPUS):
        cut = bytearray(data)
        for _ in range(3):
            at = rnd.randrange(len(cut) + 1)
            cut[at:at] = rnd.choice(TOKENS)
        (tmp_path / f"m{i:03}.sh").write_bytes(bytes(cut))
    args = [sys.executable, "-m", "packgate", "check", "--format", "json", "--lang", "both", str(tmp_path)]
    runs = [subprocess.run(args, capture_output=True, timeout=300, env=server_env(PYTHONHASHSEED=seed))
            for seed in ("1", "2")]
    assert runs[0].returncode == runs[1].returncode
    assert runs[0].stdout == runs[1].stdout
    assert b'"diagnostics"' in runs[0].stdout


@given(text=mutated())
@examples(short=150, long=3000)
# PG007 named a path by the decisions not every path took: the full walk keeps paths the
# pruned one merges (they differ in `O` only), so "every path" was another set of paths
@example(text='#!/bin/bash\nexport OFFLINE_PACKED_DATA=1\n[[ -f "$D/.packed" ]] && export O&& export '
              'OFFLINE_PACKING_BMR=1\n\ntorchrun aiak_training_llm/train.py --micro-batch-size 1\n')
@example(text='#!/usr/bin/env bash\nSTAGE="${1:-stage1}"\ncase "$STAGE" in\n    stage1)\x08 export '
              'OFFLINE_PACKING_BMR=1\n        export OFFLINE_PACKED_DATA=1\n        ;;\n    stage2)\n        export O')
def test_path_pruning_changes_no_finding(text):
    """flow.relevant_names lets paths that differ only in names no check reads merge: the
    findings must be those of the walk that keeps every name."""
    from packgate.core import flow

    pruned = fingerprint(analyze(text, settings=EN, loader=None))
    saved = flow.relevant_names
    flow.relevant_names = lambda script, memo=None: None
    try:
        full = fingerprint(analyze(text, settings=EN, loader=None))
    finally:
        flow.relevant_names = saved
    assert pruned == full
