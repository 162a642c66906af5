"""The server's fast paths to the wire give exactly what the slow paths give: the converter that
writes a diagnostic's `data` as it is (convert.converter) against pygls' default converter, and
fix ranges written straight from the Source against lsprotocol Ranges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.protocol import default_converter

from packgate.core.engine import analyze
from packgate.core.settings import Settings
from packgate.lsp import convert

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.sh"))
URI = "file:///work/fast.sh"


def _texts() -> list[tuple[str, str | None]]:
    """Every example, and variants with CJK, emoji and CRLF line ends before and on finding lines."""
    out = []
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        out.append((text, str(path)))
        out.append(("# 中文注释 😀 emoji\n" + text.replace("export ", "export 𝒳=1; export ", 1), None))
        out.append((text.replace("\n", "\r\n"), None))
        out.append((text.replace("=1\n", "=1  # 开启 😀\n"), None))
    return out


TEXTS = _texts()


def _features(encoding: str) -> convert.ClientFeatures:
    return convert.ClientFeatures(encoding=encoding, related_information=True)


def _diagnostics(text: str, path: str | None, encoding: str, lang: str = "both") -> list[types.Diagnostic]:
    analysis = analyze(text, path=path, settings=Settings(lang=lang))
    return convert.to_diagnostics(analysis.findings, analysis.source, URI, 7, _features(encoding),
                                  analysis.source_for)


def _wire(converter, message) -> str:
    return json.dumps(converter.unstructure(message))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_the_servers_converter_writes_what_pygls_default_converter_writes(encoding):
    fast, slow = convert.converter(), default_converter()
    shapes = set()
    for text, path in TEXTS:
        diagnostics = _diagnostics(text, path, encoding) + [convert.note_diagnostic("too large")]
        shapes |= {(d.related_information is not None, d.tags is not None, d.data is not None) for d in diagnostics}
        messages = [
            types.PublishDiagnosticsNotification(params=convert.publish_params(URI, 7, diagnostics)),
            types.DocumentDiagnosticResponse(id=1, result=convert.full_report(diagnostics, "r1")),
            types.WorkspaceDiagnosticResponse(id=2, result=convert.workspace_report(
                [convert.workspace_full(URI, None, diagnostics, "r2"), convert.workspace_unchanged(URI, 3, "r3")])),
            types.ProgressNotification(params=types.ProgressParams(
                token="t", value=types.WorkspaceDiagnosticReportPartialResult(
                    items=[convert.workspace_full(URI, 4, diagnostics, "r4")]))),
        ]
        for message in messages:
            assert _wire(fast, message) == _wire(slow, message)
    assert {(True, False, True), (False, True, True), (False, False, False)} <= shapes


def test_a_diagnostic_handed_back_by_the_client_is_written_as_before():
    """Code actions name the client's copy of a diagnostic (its data structured from JSON)."""
    fast, slow = convert.converter(), default_converter()
    text, path = TEXTS[0]
    diagnostics = _diagnostics(text, path, "utf-16")
    assert diagnostics
    for diagnostic in diagnostics:
        echoed = slow.structure(json.loads(json.dumps(slow.unstructure(diagnostic))), types.Diagnostic)
        actions = convert.quick_fixes(echoed, URI, 7, convert.ClientFeatures(document_changes=True), echoed)
        answer = types.CodeActionResponse(id=3, result=actions)
        assert _wire(fast, answer) == _wire(slow, answer)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_fix_ranges_are_the_ranges_lsprotocol_positions_give(encoding):
    for text, path in TEXTS:
        analysis = analyze(text, path=path)
        diagnostics = convert.to_diagnostics(analysis.findings, analysis.source, URI, 1, _features(encoding))
        for finding, diagnostic in zip(analysis.findings, diagnostics):
            for fix, data in zip(finding.fixes, diagnostic.data["fixes"], strict=True):
                for edit, written in zip(fix.edits, data["edits"], strict=True):
                    rng = convert.to_range(analysis.source, edit.start, edit.end, encoding)
                    assert written["range"] == default_converter().unstructure(rng)
