"""Findings written straight as the JSON of LSP diagnostics, with no lsprotocol object between.

The workspace pass' worker processes render their scripts' reports here, from the line index
of their own analysis, so that the server only forwards them; convert.py renders open documents
as lsprotocol objects, and tests/lsp/test_wire_fast_paths.py holds both to the same text on the
wire. Imports the core and pygls.uris (the standard library's urllib) only: a worker loads it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from pygls.uris import from_fs_path

from packgate.core.findings import Applicability
from packgate.core.outside import source_of
from packgate.core.text import Source

SOURCE = "packgate"
# lsprotocol's DiagnosticSeverity and DiagnosticTag values
SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}
WARNING = SEVERITY["warning"]
TAGS = {"unnecessary": 1, "deprecated": 2}


class ReadyJSON(dict):
    """A protocol value already in its wire shape: the server's converter (convert.converter)
    writes it as it is, where a list of lsprotocol objects would be walked field by field."""


def range_json(source: Source, start: int, end: int, enc: str) -> dict[str, Any]:
    """A byte range as the JSON of an LSP range in the encoding enc."""
    line, character = source.position(start, enc)
    end_line, end_character = source.position(end, enc)
    return {"start": {"line": line, "character": character},
            "end": {"line": end_line, "character": end_character}}


def diagnostics_json(findings: Iterable[Any], notices: Iterable[Any], source: Source, uri: str,
                     enc: str, related_information: bool,
                     source_for: Callable[[str | None], Source]) -> list[dict[str, Any]]:
    """A closed script's findings, then its notices, as the diagnostics of its report (version None)."""
    return [diagnostic_json(f, source, uri, enc, related_information, source_for) for f in findings] + \
        [notice_json(n, source, enc) for n in notices]


def diagnostic_json(finding: Any, source: Source, uri: str, enc: str, related_information: bool,
                    source_for: Callable[[str | None], Source]) -> dict[str, Any]:
    """One finding as convert.to_diagnostic's Diagnostic is written on the wire (version None)."""
    out: dict[str, Any] = {"range": range_json(source, finding.start, finding.end, enc),
                           "message": finding.message,
                           "severity": SEVERITY.get(finding.severity, WARNING),
                           "code": finding.code}
    if finding.doc_url:
        out["codeDescription"] = {"href": finding.doc_url}
    out["source"] = SOURCE
    tags = [TAGS[t] for t in finding.tags if t in TAGS]
    if tags:
        out["tags"] = tags
    if related_information and finding.related:
        out["relatedInformation"] = [related_json(item, source, uri, enc, source_for) for item in finding.related]
    out["data"] = {"key": finding.key, "rule": finding.rule, "version": None,
                   "fixes": [d for d in (fix_json(fix, source, enc) for fix in finding.fixes) if d is not None]}
    return out


def related_json(item: Any, source: Source, uri: str, enc: str,
                 source_for: Callable[[str | None], Source]) -> dict[str, Any]:
    """Another place that explains a finding, in this document or in a file it sources."""
    target, target_uri = source, uri
    if item.path is not None:
        target, target_uri = source_for(item.path), from_fs_path(item.path) or item.path
    return {"location": {"uri": target_uri, "range": range_json(target, item.start, item.end, enc)},
            "message": item.message}


def notice_json(notice: Any, source: Source, enc: str) -> dict[str, Any]:
    """A warning about the file itself as convert.notice_diagnostics writes it (version None)."""
    kind = notice.kind.value
    return {"range": range_json(source, notice.start, notice.end, enc), "message": notice.message,
            "severity": WARNING, "source": SOURCE,
            "data": {"key": f"{kind}:{notice.start}:{notice.end}", "notice": kind, "version": None, "fixes": []}}


def fix_json(fix: Any, source: Source, enc: str) -> dict[str, Any] | None:
    """A fix as a diagnostic's data carries it (None: it edits another file that changed since)."""
    # Plain JSON, so the client can hand it back in codeAction's context unchanged. A fix with a
    # caveat (it rests on the profile `auto` assumed), or an unsafe one (a guessed rename, a
    # joined value), is still offered, labelled where it has a caveat, never preferred: an
    # editor applies a preferred fix on one keystroke. Nor is one that edits another file.
    caveat = fix.caveat
    edits = []
    for e in fix.edits:
        if e.path is None:
            edits.append({"range": range_json(source, e.start, e.end, enc), "newText": e.text})
            continue
        other = source_of(e)
        if other is None:
            return None  # the other file changed since the analysis: its offsets are no longer its
        edits.append({"range": range_json(other, e.start, e.end, enc), "newText": e.text,
                      "path": e.path, "create": e.create})
    outside = any(e.path is not None for e in fix.edits)
    return {
        "title": caveat.title if caveat is not None and caveat.title else fix.description,
        "kind": fix.kind,
        "preferred": bool(fix.preferred) and caveat is None and fix.applicability is not Applicability.UNSAFE
        and not outside,
        "safe": bool(fix.safe),
        "applicability": fix.applicability.value,
        "edits": edits,
    }


def workspace_full_json(uri: str, diagnostics: list[dict[str, Any]], result_id: str) -> ReadyJSON:
    """A closed script's full report in a workspace/diagnostic answer, as convert.workspace_full's
    is written on the wire (version None: not open)."""
    return ReadyJSON(uri=uri, items=diagnostics, version=None, kind="full", resultId=result_id)
