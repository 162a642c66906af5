"""Hover over LSP: every occurrence of a gate and --micro-batch-size, in en, zh and both."""

from __future__ import annotations

import re

import pytest
from lsprotocol import types

from lsp_helpers import (
    CJK, capabilities, diagnostics, english, hover, lines_of, open_doc, position_of, push_count, pushed, session, text_in,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = """#!/bin/bash
MBS="${4:-1}"
OFFLINE_PACKING_BMR=1
export OFFLINE_PACKING_BMR
export OFFLINE_PACKED_DATA='1'
echo "bmr is ${OFFLINE_PACKING_BMR}"
unset OFFLINE_PACKING_VQA
OFFLINE_PACKED_DATA=1 torchrun aiak_training_llm/train.py \\
    --micro-batch-size "${MBS}" --tag "$OFFLINE_PACKING_BMR"
"""

# (what, the n-th occurrence of the word in SCRIPT)
OCCURRENCES = [
    ("assignment", "OFFLINE_PACKING_BMR", 0),
    ("export", "OFFLINE_PACKING_BMR", 1),
    ("export-assignment", "OFFLINE_PACKED_DATA", 0),
    ("expansion", "OFFLINE_PACKING_BMR", 2),
    ("unset", "OFFLINE_PACKING_VQA", 0),
    ("prefix", "OFFLINE_PACKED_DATA", 1),
    ("inside-launch", "OFFLINE_PACKING_BMR", 3),
    ("flag", "--micro-batch-size", 0),
]


def nth(text: str, word: str, n: int) -> int:
    return [m.start() for m in re.finditer(re.escape(word), text)][n]


@pytest.mark.parametrize("what,word,n", OCCURRENCES, ids=[o[0] for o in OCCURRENCES])
async def test_hover_on_every_occurrence(client, what, word, n):
    uri = open_doc(client, SCRIPT)
    at = nth(SCRIPT, word, n) + 3
    result = await hover(client, uri, *_pos(SCRIPT, at, client.encoding))
    assert result is not None, what
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown  # both clients render Markdown
    assert word.lstrip("-") in result.contents.value
    assert result.range is not None and word in text_in(SCRIPT, result.range, client.encoding)


async def test_gate_hover_carries_the_truth_table_and_what_the_launch_sees(client):
    uri = open_doc(client, SCRIPT)
    at = nth(SCRIPT, "OFFLINE_PACKING_BMR", 1) + 1
    value = (await hover(client, uri, *_pos(SCRIPT, at, client.encoding))).contents.value
    assert "task_encoder.py:194" in value  # where the training code reads it
    combos = [row for row in value.splitlines() if row.startswith("|") and row.count("|") >= 5]
    assert len(combos) >= 6, value  # header, separator and the four combinations
    marked = [row for row in combos if "▶" in row]  # the row of this script's launch (once per language)
    assert marked and all(row.startswith("| ▶ | 1 | 1 |") for row in marked), value  # both gates exported
    launch_line = next(i for i, row in enumerate(lines_of(SCRIPT)) if "torchrun" in row) + 1
    assert "torchrun" in value and str(launch_line) in value  # the value each launch sees, and where


async def test_hover_language_follows_the_lang_setting():
    expected = {"en": (False, True), "zh": (True, False), "both": (True, True)}
    async with session(capabilities("visual_studio_code"), {"packgate": {"lang": "en"}}) as client:
        uri = open_doc(client, SCRIPT)
        await pushed(client, uri, 1)
        for lang in ("en", "zh", "both"):
            if lang != "en":
                seen = push_count(client, uri)
                client.workspace_did_change_configuration(
                    types.DidChangeConfigurationParams(settings={"packgate": {"lang": lang}}))
                await pushed(client, uri, after=seen)
            at = nth(SCRIPT, "OFFLINE_PACKED_DATA", 0) + 2
            value = (await hover(client, uri, *_pos(SCRIPT, at, client.encoding))).contents.value
            assert (CJK.search(value) is not None, english(value)) == expected[lang], (lang, value)


async def test_plain_text_hover_for_clients_without_markdown():
    caps = capabilities("neovim")
    caps.text_document.hover.content_format = [types.MarkupKind.PlainText]
    async with session(caps) as client:
        uri = open_doc(client, SCRIPT)
        at = nth(SCRIPT, "OFFLINE_PACKING_BMR", 0) + 1
        result = await hover(client, uri, *_pos(SCRIPT, at, client.encoding))
        assert result.contents.kind == types.MarkupKind.PlainText
        assert "OFFLINE_PACKING_BMR" in result.contents.value
        assert "**" not in result.contents.value


async def test_hover_on_a_directive_value(client):
    """A `# packgate disable=` value: the rule it names, or that it names none (and is ignored)."""
    text = "# 中文 😀\texport X=1\n\t# packgate disable=missing-companion,PG0001\n" + SCRIPT
    uri = open_doc(client, text)
    for word, expected in (("missing-companion", "PG001 `missing-companion`"), ("PG0001", "this value is ignored")):
        at = text.index(word) + 2
        result = await hover(client, uri, *_pos(text, at, client.encoding))
        assert result is not None and expected in result.contents.value, word
        assert text_in(text, result.range, client.encoding) == word


async def test_no_hover_on_unrelated_words(client):
    uri = open_doc(client, SCRIPT)
    at = SCRIPT.index("bash") + 1
    assert await hover(client, uri, *_pos(SCRIPT, at, client.encoding)) is None


def _pos(text: str, index: int, encoding: str) -> tuple[int, int]:
    p = position_of(text, index, encoding)
    return p.line, p.character


async def test_documents_not_used_lately_keep_findings_and_still_hover(client):
    """Past session.KEEP_FULL documents the least recently used keep only their findings; their
    diagnostics and quick fixes are unchanged and a hover there analyses them fully again."""
    from packgate.lsp.session import KEEP_FULL
    first = open_doc(client, SCRIPT)
    before = await diagnostics(client, first)
    for _ in range(KEEP_FULL + 4):
        other = open_doc(client, SCRIPT)
        await diagnostics(client, other)
    assert [d.range for d in await diagnostics(client, first)] == [d.range for d in before]
    at = nth(SCRIPT, "OFFLINE_PACKED_DATA", 0)
    result = await hover(client, first, *_pos(SCRIPT, at, client.encoding))
    assert result is not None and "OFFLINE_PACKED_DATA" in result.contents.value
