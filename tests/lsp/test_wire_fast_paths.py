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


def _closed_variants(tmp_path: Path) -> list[tuple[str, str]]:
    """(path, text) of closed scripts: every example, and variants with Chinese comments, emoji,
    tabs and CRLF line ends, and one whose finding explains itself in the env file it sources
    (related information in another file, with Chinese and emoji before the place)."""
    out = []
    tabbed = [t.replace("    ", "\t").replace("=1\n", "=1\t# 制表符\t😀\n") for t, p in TEXTS if p is not None]
    for n, text in enumerate([t for t, _ in TEXTS] + tabbed):
        path = tmp_path / f"closed_{n:03d}.sh"
        path.write_bytes(text.encode("utf-8"))
        out.append((str(path), text))
    team = tmp_path / "team"
    (team / "exp").mkdir(parents=True)
    (team / "env.sh").write_text("# 环境变量 😀\n\texport OFFLINE_PACKING_BMR=1\r\n", encoding="utf-8")
    launch = (ROOT / "examples" / "stage2_bmr_only_leak.sh").read_text(encoding="utf-8")
    sourcing = "#!/bin/bash\n# 读取环境 🚀\nsource ../env.sh\n" + launch.split("\n", 1)[1]
    (team / "exp" / "train.sh").write_text(sourcing, encoding="utf-8")
    out.append((str(team / "exp" / "train.sh"), sourcing))
    return out


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("related", [True, False])
def test_a_workers_json_report_is_written_as_the_lsprotocol_report(tmp_path, encoding, related):
    """The workspace pass' closed-script reports (closed_reports, as JSON from the worker) give the
    wire text that rendering the same analysis with convert and pygls' default converter gives."""
    from pygls.uris import from_fs_path

    from packgate.core.closed_scripts import ScriptJob, analyse_script
    from packgate.lsp.closed_reports import Rendering, report
    from packgate.lsp.diagnostic_json import workspace_full_json

    fast, slow = convert.converter(), default_converter()
    features = convert.ClientFeatures(encoding=encoding, related_information=related)
    shapes = set()
    for path, text in _closed_variants(tmp_path):
        job = ScriptJob(path, str(tmp_path), Settings(lang="both"))
        analysis = analyse_script(job, {})
        assert analysis.source.text == text
        uri = from_fs_path(path)
        before = convert.to_diagnostics(analysis.findings, analysis.source, uri, None, features,
                                        analysis.source_for) + \
            convert.notice_diagnostics(analysis.notices, analysis.source, None, features)
        shapes |= {(any(r.location.uri != uri for r in d.related_information or ()), d.tags is not None,
                    d.code_description is not None, d.code is None) for d in before}
        after = report(job, analysis, Rendering(encoding, related)).diagnostics
        now, today = [workspace_full_json(uri, after, "w1")], [convert.workspace_full(uri, None, before, "w1")]
        # the answer without partial results, and a partial result
        assert _wire(fast, types.WorkspaceDiagnosticResponse(id=1, result=convert.workspace_report(now))) == \
            _wire(slow, types.WorkspaceDiagnosticResponse(id=1, result=convert.workspace_report(today)))
        assert _wire(fast, _partial(now)) == _wire(slow, _partial(today))
    wanted = {(False, True, True, False), (False, False, True, False), (False, False, False, True)}
    if related:
        wanted.add((True, False, True, False))
    assert wanted <= shapes, shapes


def _partial(items: list) -> types.ProgressNotification:
    return types.ProgressNotification(params=types.ProgressParams(
        token="t", value=types.WorkspaceDiagnosticReportPartialResult(items=items)))
