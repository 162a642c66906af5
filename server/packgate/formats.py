"""Renderers of findings: text, json, sarif and github annotations. Pure functions over data."""

from __future__ import annotations

import os
import re

from . import __version__
from .core.settings import LEVEL_RANK

FORMATS = ("text", "json", "sarif", "github")

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "information": "\033[36m", "hint": "\033[2m"}
_BOLD, _RESET, _DIM = "\033[1m", "\033[0m", "\033[2m"


class Report:
    """The findings of one run: per file, the analysis (for positions and fixes)."""

    def __init__(self):
        self.files: list = []  # [(display path, Analysis)]
        self.errors: list = []  # one-line problems (unreadable files, ...)
        self.fixed = 0  # findings that --fix removed
        self.fixed_files = 0  # files --fix rewrote

    def add(self, path: str, analysis) -> None:
        """Record the analysis of one file."""
        self.files.append((path, analysis))

    def findings(self):
        """(path, analysis, finding) for every finding, in file order."""
        for path, analysis in self.files:
            for f in analysis.findings:
                yield path, analysis, f

    def summary(self) -> dict:
        """Counts per severity, and the number of files."""
        out = {"files": len(self.files), "error": 0, "warning": 0, "information": 0, "hint": 0}
        for _, _, f in self.findings():
            out[f.severity] += 1
        return out


def _edit_json(analysis, edit) -> dict:
    line, col = analysis.source.user_position(edit.start)
    end_line, end_col = analysis.source.user_position(edit.end)
    return {"line": line, "column": col, "end_line": end_line, "end_column": end_col, "text": edit.text}


def render_text(report: Report, color: bool) -> str:
    """path:line:col: severity: message [PG001 missing-companion], then a summary line."""
    lines = []
    for path, _, f in report.findings():
        sev = f.severity
        if color:
            lines.append(f"{_BOLD}{path}:{f.line}:{f.column}:{_RESET} {_COLORS[sev]}{sev}{_RESET}: "
                         f"{f.message} {_DIM}[{f.code} {f.rule}]{_RESET}")
        else:
            lines.append(f"{path}:{f.line}:{f.column}: {sev}: {f.message} [{f.code} {f.rule}]")
    s = report.summary()
    if report.fixed_files:
        lines.append(f"Fixed {report.fixed} problem{'s' if report.fixed != 1 else ''} in "
                     f"{report.fixed_files} file{'s' if report.fixed_files != 1 else ''}.")
    total = s["error"] + s["warning"] + s["information"] + s["hint"]
    if total:
        parts = [f"{s[k]} {k}{'s' if s[k] != 1 and k != 'information' else ''}"
                 for k in ("error", "warning", "information", "hint") if s[k]]
        lines.append(f"Found {total} problem{'s' if total != 1 else ''} ({', '.join(parts)}) "
                     f"in {s['files']} file{'s' if s['files'] != 1 else ''}.")
    else:
        lines.append(f"No problems in {s['files']} file{'s' if s['files'] != 1 else ''}.")
    return "\n".join(lines) + "\n"


def render_json(report: Report) -> str:
    """The JSON document of CONTRACT.md."""
    diags = []
    for path, analysis, f in report.findings():
        diags.append({
            "path": path, "line": f.line, "column": f.column, "end_line": f.end_line,
            "end_column": f.end_column, "code": f.code, "rule": f.rule, "severity": f.severity,
            "message": f.message,
            "fixes": [{"description": x.description, "safe": x.safe, "kind": x.kind,
                       "edits": [_edit_json(analysis, e) for e in x.edits]} for x in f.fixes],
        })
    import json
    return json.dumps({"version": __version__, "diagnostics": diags, "summary": report.summary()},
                      ensure_ascii=False, indent=2) + "\n"


_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}


def _rel(path: str) -> str:
    """The path with / separators, relative to the working folder when it lies inside it."""
    p = path.replace(os.sep, "/")
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
            if not rel.startswith(".."):
                p = rel.replace(os.sep, "/")
        except ValueError:
            pass
    return p


def _uri(path: str) -> str:
    """A SARIF artifact URI reference: the path's bytes percent-encoded (RFC 3986), so spaces,
    non-ASCII names and bytes that are not UTF-8 all give a valid URI."""
    from urllib.parse import quote
    return quote(os.fsencode(_rel(path)), safe="/")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid_unicode(text: str) -> str:
    """Machine formats must be UTF-8: a file name that is not (read as lone surrogates by
    Python) shows U+FFFD for each undecodable byte instead of writing the raw byte."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def render_sarif(report: Report) -> str:
    """SARIF 2.1.0 with rule metadata, fixes and relative paths."""
    from .core.rules import RULES  # the rule table: only SARIF needs it here
    index = {r.code: i for i, r in enumerate(RULES)}
    rules = [{
        "id": r.code, "name": r.name,
        "shortDescription": {"text": r.summary_en},
        "fullDescription": {"text": r.problem_en},
        "helpUri": r.doc_url,
        "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
        "properties": {"tags": ["packing"] + list(r.tags)},
    } for r in RULES]
    results = []
    for path, analysis, f in report.findings():
        uri = _uri(path)
        region = {"startLine": f.line, "startColumn": f.column, "endLine": f.end_line,
                  "endColumn": f.end_column}
        result = {
            "ruleId": f.code, "ruleIndex": index[f.code], "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}, "region": region}}],
        }
        fixes = []
        for x in f.fixes:
            if x.kind != "fix":
                continue
            reps = []
            for e in x.edits:
                j = _edit_json(analysis, e)
                reps.append({"deletedRegion": {"startLine": j["line"], "startColumn": j["column"],
                                               "endLine": j["end_line"], "endColumn": j["end_column"]},
                             "insertedContent": {"text": e.text}})
            fixes.append({"description": {"text": x.description},
                          "artifactChanges": [{"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                                               "replacements": reps}]})
        if fixes:
            result["fixes"] = fixes
        related = []
        for i, r in enumerate(f.related):
            src = analysis.source_for(r.path)
            line, col = src.user_position(r.start)
            end_line, end_col = src.user_position(r.end)
            related.append({"id": i, "message": {"text": r.message}, "physicalLocation": {
                "artifactLocation": {"uri": _uri(r.path) if r.path else uri, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}}})
        if related:
            result["relatedLocations"] = related
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "packgate", "version": __version__,
                                "semanticVersion": __version__, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _cwd_uri()}},
            "results": results,
        }],
    }
    import json
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def _cwd_uri() -> str:
    from pathlib import Path
    return Path.cwd().resolve().as_uri() + "/"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_LEVEL = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}


def render_github(report: Report) -> str:
    """GitHub Actions workflow commands (::error file=...::message)."""
    lines = []
    for path, _, f in report.findings():
        props = (f"file={_gh_escape(_rel(path), True)},line={f.line},col={f.column},"
                 f"endLine={f.end_line},endColumn={f.end_column},"
                 f"title={_gh_escape(f'{f.code} {f.rule}', True)}")
        lines.append(f"::{_GH_LEVEL[f.severity]} {props}::{_gh_escape(f.message)}")
    return "\n".join(lines) + ("\n" if lines else "")


def render(report: Report, fmt: str, color: bool = False) -> str:
    """Render a report in one of FORMATS."""
    if fmt == "json":
        return _valid_unicode(render_json(report))
    if fmt == "sarif":
        return _valid_unicode(render_sarif(report))
    if fmt == "github":
        return _valid_unicode(render_github(report))
    return render_text(report, color)  # a terminal gets the file name's own bytes, as ls prints them


def at_least(severity: str, minimum: str) -> bool:
    """True when severity is at or above minimum."""
    return LEVEL_RANK[severity] >= LEVEL_RANK[minimum]
