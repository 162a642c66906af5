"""Diagnostics over LSP: push or pull by client capability, exact positions, every field."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_helpers import (
    PULLING, capabilities, codes, diagnostics, index_of, lines_of, open_doc, position_of, pulled, pulls,
    push_count, pushed, replace_all, session, text_in, wait_until,
)
from packgate.core.engine import analyze

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
# Chinese and an emoji (a surrogate pair in UTF-16, four bytes in UTF-8) before the gate.
MIXED = 'echo "训练 🚀 开始"; export OFFLINE_PACKING_BMR=1\n' + LAUNCH
# Tabs, CRLF line ends and a form feed (a line break for str.splitlines, not for LSP).
AWKWARD = ("#! /bin/bash\r\n# 说明\f第二页 😀\r\n\t\techo \"数据 😀\t🚀\" ; export OFFLINE_PACKING_BMR='1'\r\n"
           "torchrun aiak_training_llm/train.py --micro-batch-size 1\r\n")


def expected_range(text: str, start: int, end: int, encoding: str) -> types.Range:
    """A core byte range as the client must see it, computed without packgate.core.text."""
    data = text.encode("utf-8")
    return types.Range(start=position_of(text, len(data[:start].decode("utf-8")), encoding),
                       end=position_of(text, len(data[:end].decode("utf-8")), encoding))


def first(diags: list[types.Diagnostic], code: str) -> types.Diagnostic:
    found = [d for d in diags if d.code == code]
    assert found, f"no {code} in {codes(diags)}"
    return found[0]


@pytest.mark.parametrize("text", [MIXED, AWKWARD], ids=["chinese-emoji", "tabs-crlf-formfeed"])
async def test_ranges_are_exact_in_the_negotiated_encoding(client, text):
    expected_encoding = "utf-8" if client.name.startswith("neovim") else "utf-16"
    assert client.encoding == expected_encoding
    uri = open_doc(client, text)
    diags = await diagnostics(client, uri, 1)
    analysis = analyze(text)
    core = {f.key: f for f in analysis.findings}
    # the findings, then the warnings that have no code (CRLF line ends: core.notices)
    assert codes(diags) == [f.code for f in core.values()] + ["None"] * len(analysis.notices)
    pg001 = first(diags, "PG001")
    finding = core[pg001.data["key"]]
    assert pg001.range == expected_range(text, finding.start, finding.end, client.encoding)
    assert "OFFLINE_PACKING_BMR" in text_in(text, pg001.range, client.encoding)
    gate_line = next(i for i, row in enumerate(lines_of(text)) if "export OFFLINE_PACKING_BMR" in row)
    assert pg001.range.start.line == gate_line
    for rel, item in zip(pg001.related_information or [], finding.related):
        assert rel.location.uri == uri
        assert rel.location.range == expected_range(text, item.start, item.end, client.encoding)


async def test_utf32_positions_count_code_points():
    # Emacs 29's capability set (pytest-lsp ships it) prefers utf-32.
    async with session(capabilities("emacs")) as client:
        assert client.encoding == "utf-32"
        uri = open_doc(client, AWKWARD)
        pg001 = first(await pushed(client, uri, 1), "PG001")
        finding = next(f for f in analyze(AWKWARD).findings if f.start == _start(AWKWARD, pg001, "utf-32"))
        assert pg001.range == expected_range(AWKWARD, finding.start, finding.end, "utf-32")
        assert pg001.related_information is None  # Emacs does not take relatedInformation


def _start(text: str, diag: types.Diagnostic, encoding: str) -> int:
    return len(text[:index_of(text, diag.range.start.line, diag.range.start.character, encoding)].encode())


async def test_every_field_of_a_diagnostic(client):
    text = "export OFFLINE_PACKING_BMR=1\n" + LAUNCH
    uri = open_doc(client, text)
    pg001 = first(await diagnostics(client, uri, 1), "PG001")
    assert pg001.source == "packgate"
    assert pg001.severity == types.DiagnosticSeverity.Error
    assert pg001.code_description is not None and "PG001" in pg001.code_description.href
    assert "OFFLINE_PACKED_DATA" in pg001.message  # names the missing companion
    related = pg001.related_information or []
    assert any("torchrun" in text_in(text, r.location.range, client.encoding) for r in related), related
    data = pg001.data
    assert data["version"] == 1 and data["key"].startswith("PG001")
    assert data["fixes"] and data["fixes"][0]["edits"], data


async def test_dead_var_is_tagged_unnecessary(client):
    text = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH
    uri = open_doc(client, text)
    pg002 = first(await diagnostics(client, uri, 1), "PG002")
    assert list(pg002.tags or []) == [types.DiagnosticTag.Unnecessary]
    assert pg002.severity == types.DiagnosticSeverity.Warning
    assert "OFFLINE_PACKING_VQA" in text_in(text, pg002.range, client.encoding)


async def test_push_without_pull_support_and_pull_with_it_never_both(client):
    uri = open_doc(client, "export OFFLINE_PACKED_DATA=1\n" + LAUNCH)
    # pull only for a client that also takes workspace/diagnostic/refresh: Neovim 0.11 is pushed to
    assert pulls(client) == (client.name == PULLING)
    if pulls(client):
        assert codes(await pulled(client, uri)) == ["PG001"]
        replace_all(client, uri, 2, "export OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKING_BMR=1\n" + LAUNCH)
        assert codes(await pulled(client, uri)) == []
        await client.text_document_hover_async(types.HoverParams(  # a round trip: nothing pushed meanwhile
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
        assert push_count(client, uri) == 0
    else:
        assert codes(await diagnostics(client, uri, 1)) == ["PG001"]
        replace_all(client, uri, 2, "export OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKING_BMR=1\n" + LAUNCH)
        assert codes(await diagnostics(client, uri, 2)) == []
        assert [p.version for p in client.published[uri]] == [1, 2]


async def test_pull_answers_unchanged_for_the_same_result(client):
    if not pulls(client):
        pytest.skip("only a pulling client sends previousResultId")
    uri = open_doc(client, "export OFFLINE_PACKING_BMR=1\n" + LAUNCH)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    full = await client.text_document_diagnostic_async(params)
    assert full.kind == "full" and full.result_id
    params.previous_result_id = full.result_id
    again = await client.text_document_diagnostic_async(params)
    assert again.kind == "unchanged" and again.result_id == full.result_id
    replace_all(client, uri, 2, "export OFFLINE_PACKING_BMR=0\n" + LAUNCH)
    changed = await client.text_document_diagnostic_async(params)
    assert changed.kind == "full" and changed.result_id != full.result_id


async def test_close_clears_pushed_diagnostics(client):
    if pulls(client):
        pytest.skip("a pulling client drops diagnostics of closed documents itself")
    uri = open_doc(client, "export OFFLINE_PACKING_BMR=1\n" + LAUNCH)
    assert await diagnostics(client, uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_until(lambda: push_count(client, uri) == 2)
    assert list(client.published[uri][-1].diagnostics) == []


async def test_incremental_changes_across_crlf_form_feed_and_emoji(client):
    # The edit sits on the line after a form feed: pygls' own line split would put it one line off.
    text = "# 第一页\f第二页 😀\r\nexport OFFLINE_PACKING_BMR=0\r\n" + LAUNCH.replace("\n", "\r\n")
    uri = open_doc(client, text)
    assert "PG001" not in codes(await diagnostics(client, uri, 1))
    at = text.index("=0") + 1
    start = position_of(text, at, client.encoding)
    end = position_of(text, at + 1, client.encoding)
    assert start.line == 1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text="1")]))
    text = text[:at] + "1" + text[at + 1:]
    # A second change in the same notification: insert an emoji comment before the gate.
    pos = position_of(text, text.index("export"), client.encoding)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=pos, end=pos), text="echo 🚀;\t")]))
    text = text.replace("export", "echo 🚀;\texport", 1)
    diags = await diagnostics(client, uri, 3)
    pg001 = first(diags, "PG001")
    assert text_in(text, pg001.range, client.encoding).startswith("OFFLINE_PACKING_BMR") or \
        "OFFLINE_PACKING_BMR" in text_in(text, pg001.range, client.encoding)
    assert pg001.range.start.line == 1
    assert index_of(text, pg001.range.start.line, 0, client.encoding) == text.index("echo 🚀")


async def test_a_burst_of_changes_ends_with_the_latest_version(client):
    text = "export OFFLINE_PACKING_BMR=1\n" + LAUNCH
    uri = open_doc(client, text)
    await diagnostics(client, uri, 1)
    for version in range(2, 8):
        end = types.Position(line=0, character=len("export OFFLINE_PACKING_BMR="))
        value = str(version % 2)  # 1 on the last change: BMR on, PACKED_DATA missing
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=end, end=types.Position(line=0, character=end.character + 1)), text=value)]))
    assert codes(await diagnostics(client, uri, 7)) == ["PG001"]
    if not pulls(client):
        versions = [p.version for p in client.published[uri]]
        assert versions == sorted(set(versions)) and versions[-1] == 7, versions
