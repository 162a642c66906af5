"""Renderers of findings: text, json, sarif, github, gitlab and checkstyle. Pure functions over data."""

from __future__ import annotations

import os
import re

from .. import __version__
from ..core.records import record
from ..core.settings import LEVEL_RANK

FORMATS = ("text", "json", "sarif", "github", "gitlab", "checkstyle")

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "information": "\033[36m", "hint": "\033[2m"}
_BOLD, _RESET, _DIM = "\033[1m", "\033[0m", "\033[2m"


@record(frozen=True)
class Problem:
    """Something that is not a finding but keeps a file (or a setting) from being checked as
    asked: an unreadable or missing file, invalid UTF-8, an unknown rule in a directive, a
    configuration error. level "error" makes the run exit 2. skipped: why a file was left out
    on purpose ("binary", "too large"), which is reported but does not change the exit status."""

    message: str
    path: str | None = None
    line: int = 0  # 1-based; 0 when the problem has no position
    column: int = 0
    level: str = "warning"
    skipped: str = ""

    def __str__(self) -> str:
        where = self.path or ""
        if where and self.line:
            where += f":{self.line}:{self.column or 1}"
        return f"{where}: {self.message}" if where else self.message


@record(frozen=True)
class TextOptions:
    """What the text format shows besides the findings."""

    color: bool = False
    show_source: bool = False
    statistics: bool = False
    quiet: bool = False


class Report:
    """The findings of one run: per file, the analysis (for positions and fixes)."""

    def __init__(self, root: str | None = None):
        self.files: list = []  # [(display path, Analysis)]
        self.problems: list = []  # [Problem]
        self.fixed = 0  # findings that --fix removed
        self.fixed_files = 0  # files --fix rewrote
        self.fixing = False  # a --fix run: say under each finding left why its fix was withheld
        self.root = root  # the repository root machine formats make paths relative to

    def add(self, path: str, analysis) -> None:
        """Record the analysis of one file."""
        self.files.append((path, analysis))

    def findings(self):
        """(path, analysis, finding) for every finding, in file order."""
        for path, analysis in self.files:
            for f in analysis.findings:
                yield path, analysis, f

    def summary(self) -> dict:
        """Counts per severity, and the number of files checked."""
        out = {"files": len(self.files), "error": 0, "warning": 0, "information": 0, "hint": 0}
        for _, _, f in self.findings():
            out[f.severity] += 1
        return out

    def files_with_findings(self) -> int:
        """How many of the checked files have at least one finding."""
        return sum(1 for _, analysis in self.files if analysis.findings)

    def statistics(self) -> list:
        """(count, code, rule) per rule that fired, most frequent first."""
        counts: dict = {}
        for _, _, f in self.findings():
            counts[(f.code, f.rule)] = counts.get((f.code, f.rule), 0) + 1
        return sorted(((n, code, rule) for (code, rule), n in counts.items()),
                      key=lambda t: (-t[0], t[1]))

    def withheld(self) -> list:
        """The caveat of each finding left whose fix the run withheld (an unsafe fix, not applied
        without --unsafe-fixes), in file order."""
        return [c for _, analysis, f in self.findings() if (c := withheld(f, analysis)) is not None]

    def assumed(self) -> int:
        """How many files `auto` judged with a profile it assumed (no training code found)."""
        return sum(1 for _, a in self.files if getattr(a.profile, "assumed_en", ""))


def withheld(finding, analysis):
    """The Caveat of the unsafe fix a batch fix leaves for this finding (the analysis's settings
    do not turn unsafe fixes on, and none of its fixes is applied), else None."""
    settings = getattr(analysis, "settings", None)
    unsafe = bool(getattr(settings, "unsafe_fixes", False))
    if any(x.applies(unsafe) for x in finding.fixes):
        return None
    return next((x.caveat for x in finding.fixes
                 if x.kind == "fix" and x.caveat is not None and x.applies(True)), None)


def withheld_line(caveats: list) -> str:
    """One line saying how many fixes were withheld and why ("" for none)."""
    if not caveats:
        return ""
    profiles = ", ".join(dict.fromkeys(c.profile for c in caveats))
    one = len(caveats) == 1
    return (f"{len(caveats)} {'fix' if one else 'fixes'} withheld: {'it rests' if one else 'they rest'} on "
            f"the profile `auto` assumed ({profiles}); --unsafe-fixes applies {'it' if one else 'them'}, "
            "or set profile.")


def _edit_json(analysis, edit) -> dict:
    source = analysis.source if edit.path is None else _outside_source(edit)
    line, col = source.user_position(edit.start)
    end_line, end_col = source.user_position(edit.end)
    out = {"line": line, "column": col, "end_line": end_line, "end_column": end_col, "text": edit.text}
    if edit.path is not None:  # an edit of another file (PG006's .deepspeed_env): which, made or edited
        out.update(path=edit.path, create=edit.create)
    return out


def _outside_source(edit):
    """The Source an edit of another file counts in (that file as it is now; empty where the
    edit makes it, or where it changed since: its positions then say where it was meant to go)."""
    from ..core.outside import source_of
    from ..core.text import Source
    return source_of(edit) or Source("")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 or word == 'information' else 's'}"


def _source_excerpt(analysis, f) -> list:
    """The finding's line and a caret under its range, as ShellCheck's tty format and ruff show."""
    source = analysis.source_for(f.path) if f.path and f.path != analysis.path else analysis.source
    if f.line < 1 or f.line > source.line_count:
        return []
    text = source.line_bytes(f.line - 1).decode("utf-8", "replace")
    width = len(str(f.line))
    start = min(max(0, f.column - 1), len(text))
    end = f.end_column - 1 if f.end_line == f.line else len(text)
    end = min(max(end, start + 1), len(text))
    pad, cells = _caret_indent(text, start)
    carets = max(1, cells[end] - cells[start]) if end > start else 1
    return [f" {f.line} | {text}", f" {' ' * width} | {pad}{'^' * carets}"]


TAB_STOP = 8  # only to size a caret run over a tab; the indentation keeps tabs under tabs


def _caret_indent(text: str, start: int) -> tuple[str, list]:
    """What goes before a caret under code point `start` of text, and the terminal column at
    which each code point of text starts (one more entry: the end). Tabs stay tabs, so the caret
    lines up however wide the terminal draws them; every other character is replaced by as many
    spaces as the cells it takes: an East Asian wide or fullwidth character (CJK, most emoji)
    two, a combining mark or a zero-width format character none (code points are not columns)."""
    import unicodedata
    pad, cells, col = [], [], 0
    for i, ch in enumerate(text):
        cells.append(col)
        if ch == "\t":
            step = TAB_STOP - col % TAB_STOP
        elif ch.isascii():
            step = 1
        elif unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            step = 0
        else:
            step = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if i < start:
            pad.append("\t" if ch == "\t" else " " * step)
        col += step
    cells.append(col)
    return "".join(pad), cells


def render_text(report: Report, options: TextOptions = TextOptions()) -> str:
    """path:line:col: severity: message [PG001 missing-companion], then a summary line."""
    color = options.color
    lines = []
    if options.statistics:
        stats = report.statistics()
        width = max((len(str(n)) for n, _, _ in stats), default=1)
        for n, code, rule in stats:
            lines.append(f"{n:>{width}}  {code}  {rule}")
    else:
        for path, analysis, f in report.findings():
            sev = f.severity
            # --lang both puts each language on a line of its own: the first keeps the
            # file:line:col: shape and the rule tag, the others are indented beneath it
            first, *more = f.message.split("\n")
            if color:
                lines.append(f"{_BOLD}{path}:{f.line}:{f.column}:{_RESET} {_COLORS[sev]}{sev}{_RESET}: "
                             f"{first} {_DIM}[{f.code} {f.rule}]{_RESET}")
            else:
                lines.append(f"{path}:{f.line}:{f.column}: {sev}: {first} [{f.code} {f.rule}]")
            lines.extend(f"    {line}" for line in more)
            caveat = withheld(f, analysis) if report.fixing else None
            if caveat is not None:
                lines.extend(f"    {line}" for line in caveat.note.split("\n"))
            if options.show_source:
                lines.extend(_source_excerpt(analysis, f))
    if options.quiet:
        return "\n".join(lines) + ("\n" if lines else "")
    lines.extend(summary_lines(report))
    return "\n".join(lines) + "\n"


def summary_lines(report: Report) -> list:
    """What --fix changed, the counts, and once per run the profile `auto` assumed."""
    lines = []
    s = report.summary()
    if report.fixed_files:
        lines.append(f"Fixed {_plural(report.fixed, 'problem')} in {_plural(report.fixed_files, 'file')}.")
    total = s["error"] + s["warning"] + s["information"] + s["hint"]
    checked = s["files"]
    unread = sum(1 for p in report.problems if p.level == "error")
    if total:
        parts = [_plural(s[k], k) for k in ("error", "warning", "information", "hint") if s[k]]
        having = report.files_with_findings()
        also = f" ({_plural(checked, 'file')} checked)" if having != checked else ""
        lines.append(f"Found {_plural(total, 'problem')} ({', '.join(parts)}) in "
                     f"{_plural(having, 'file')}{also}.")
    elif checked:
        lines.append(f"No problems in {_plural(checked, 'file')}.")
    else:
        lines.append("No file was checked" + (f" ({unread} could not be read)." if unread else "."))
    skipped: dict = {}
    for p in report.problems:
        if p.skipped:
            skipped[p.skipped] = skipped.get(p.skipped, 0) + 1
    if skipped:
        n = sum(skipped.values())
        why = ", ".join(k if n == 1 or len(skipped) == 1 else f"{c} {k}" for k, c in sorted(skipped.items()))
        lines.append(f"{_plural(n, 'file')} skipped ({why}).")
    held = withheld_line(report.withheld()) if report.fixing else ""
    if held:
        lines.append(held)
    assumed = report.assumed()
    if assumed:
        which = "" if assumed == checked else f" for {_plural(assumed, 'file')}"
        lines.append(f"Profile ov2 assumed{which}: `auto` found no training code that reads the "
                     "gates (see --show-settings FILE).")
    return lines


def _problem_json(p: Problem) -> dict:
    return {"path": p.path, "line": p.line or None, "column": p.column or None,
            "level": p.level, "message": p.message, "skipped": p.skipped or None}


def render_json(report: Report) -> str:
    """The JSON document of CONTRACT.md, with the problems that are not findings."""
    import json
    diags = []
    for path, analysis, f in report.findings():
        diags.append({
            "path": path, "line": f.line, "column": f.column, "end_line": f.end_line,
            "end_column": f.end_column, "code": f.code, "rule": f.rule, "severity": f.severity,
            "message": f.message,
            "fixes": [{"description": x.description, "safe": x.safe, "kind": x.kind,
                       "applicability": x.applicability.value,
                       "reason": x.caveat.reason.value if x.caveat is not None else None,
                       "edits": [_edit_json(analysis, e) for e in x.edits]} for x in f.fixes],
        })
    return json.dumps({"version": __version__, "diagnostics": diags, "summary": report.summary(),
                       "problems": [_problem_json(p) for p in report.problems]},
                      ensure_ascii=False, indent=2) + "\n"


def render_statistics_json(report: Report) -> str:
    """--statistics --format json: the count per rule (most frequent first), whether `--fix`
    fixes some of them, the summary and the problems."""
    import json
    fixable = {f.code for _, _, f in report.findings() if any(x.kind == "fix" and x.safe for x in f.fixes)}
    stats = [{"code": code, "rule": rule, "count": n, "fixable": code in fixable}
             for n, code, rule in report.statistics()]
    return json.dumps({"version": __version__, "statistics": stats, "summary": report.summary(),
                       "problems": [_problem_json(p) for p in report.problems]},
                      ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------- paths for machine formats

def repository_root(start: str | None = None) -> str:
    """The root machine formats make paths relative to: the project holding the working
    folder (.git, pyproject.toml, ...), else the working folder itself."""
    from ..core.project import find_root
    here = os.path.realpath(start or os.getcwd())
    found = find_root(here)
    return found if found is not None else here


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


def _inside(path: str, root: str) -> str | None:
    """path relative to root (/ separators) when it lies inside root, else None."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, root)
    except ValueError:
        return None
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def _quote(path: str) -> str:
    """A URI reference: the path's bytes percent-encoded (RFC 3986), so spaces, non-ASCII
    names and bytes that are not UTF-8 all give a valid URI."""
    from urllib.parse import quote
    return quote(os.fsencode(path), safe="/")


def _artifact(path: str, root: str) -> dict:
    """A SARIF artifactLocation: relative to %SRCROOT% inside the repository, else an absolute
    file URI without a base."""
    rel = _inside(path, root)
    if rel is not None:
        return {"uri": _quote(rel), "uriBaseId": "%SRCROOT%"}
    return {"uri": "file://" + _quote(os.path.abspath(path).replace(os.sep, "/"))}


def _report_path(path: str, root: str) -> str:
    """The path GitLab and fingerprints use: relative to the repository root when inside it."""
    rel = _inside(path, root)
    return rel if rel is not None else os.path.abspath(path).replace(os.sep, "/")


def fingerprints(report: Report, root: str) -> list:
    """A stable id per finding, in report order: rule, path and the text of the flagged line
    (so it survives lines added above it), numbered when the same key repeats."""
    import hashlib
    seen: dict = {}
    out = []
    for path, analysis, f in report.findings():
        try:
            line = analysis.source.line_bytes(f.line - 1).decode("utf-8", "replace").strip()
        except IndexError:
            line = ""
        key = f"{f.code}\0{_report_path(path, root)}\0{line}"
        seen[key] = seen.get(key, 0) + 1
        out.append(hashlib.sha256(f"{key}\0{seen[key]}".encode("utf-8", "replace")).hexdigest())
    return out


# ---------------------------------------------------------------- sarif

_LONE_SURROGATE = "[\ud800-\udfff]"  # patterns of one format: compiled when used (re caches them)


def _valid_unicode(text: str) -> str:
    """Machine formats must be UTF-8: a file name that is not (read as lone surrogates by
    Python) shows U+FFFD for each undecodable byte instead of writing the raw byte."""
    return re.sub(_LONE_SURROGATE, "\ufffd", text)


_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}


def _sarif_rules() -> list:
    from ..core.docs import rule_page
    from ..core.rules import RULES  # the rule table: only SARIF needs it here
    return [{
        "id": r.code, "name": r.name,
        "shortDescription": {"text": r.summary_en},
        "fullDescription": {"text": r.problem_en},
        "helpUri": r.doc_url,
        "help": {"text": rule_page(r, "en"), "markdown": rule_page(r, "both")},
        "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
        "properties": {"tags": ["packing"] + list(r.tags)},
    } for r in RULES]


def _region(line: int, col: int, end_line: int, end_col: int) -> dict:
    return {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


def render_sarif(report: Report) -> str:
    """SARIF 2.1.0: rule metadata with help, fixes, fingerprints, repository-relative paths,
    and the problems that are not findings as tool execution notifications."""
    import json
    from ..core.rules import RULES
    root = report.root or repository_root()
    index = {r.code: i for i, r in enumerate(RULES)}
    results = []
    for (path, analysis, f), print_ in zip(report.findings(), fingerprints(report, root)):
        where = _artifact(path, root)
        result = {
            "ruleId": f.code, "ruleIndex": index[f.code], "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": where,
                "region": _region(f.line, f.column, f.end_line, f.end_column)}}],
            "partialFingerprints": {"packgate/v1": print_},
        }
        fixes = []
        for x in f.fixes:
            if x.kind != "fix":
                continue
            changes: dict = {}  # one artifactChange per file, the checked one first
            for e in x.edits:
                j = _edit_json(analysis, e)
                changes.setdefault(e.path, []).append(
                    {"deletedRegion": _region(j["line"], j["column"], j["end_line"], j["end_column"]),
                     "insertedContent": {"text": e.text}})
            fixes.append({"description": {"text": x.description},
                          "artifactChanges": [{"artifactLocation": where if other is None else _artifact(other, root),
                                               "replacements": reps} for other, reps in changes.items()]})
        if fixes:
            result["fixes"] = fixes
        related = []
        for i, r in enumerate(f.related):
            src = analysis.source_for(r.path)
            line, col = src.user_position(r.start)
            end_line, end_col = src.user_position(r.end)
            related.append({"id": i, "message": {"text": r.message}, "physicalLocation": {
                "artifactLocation": _artifact(r.path, root) if r.path else where,
                "region": _region(line, col, end_line, end_col)}})
        if related:
            result["relatedLocations"] = related
        results.append(result)
    notifications = []
    for p in report.problems:
        note = {"level": "error" if p.level == "error" else "warning", "message": {"text": str(p)}}
        if p.path and p.path != "-":
            location = {"artifactLocation": _artifact(p.path, root)}
            if p.line:
                location["region"] = {"startLine": p.line, "startColumn": p.column or 1}
            note["locations"] = [{"physicalLocation": location}]
        notifications.append(note)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "packgate", "version": __version__,
                                "semanticVersion": __version__, "informationUri": _home(),
                                "rules": _sarif_rules()}},
            "invocations": [{"executionSuccessful": not any(p.level == "error" for p in report.problems),
                             "toolExecutionNotifications": notifications}],
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _file_uri(root).rstrip("/") + "/"}},
            "results": results,
        }],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def _file_uri(path: str) -> str:
    """The file: URI of an absolute path (only SARIF needs one, so pathlib is imported here)."""
    from pathlib import Path
    return Path(path).as_uri()


def _home() -> str:
    from ..core.links import REPOSITORY_URL
    return REPOSITORY_URL


# ---------------------------------------------------------------- github, gitlab, checkstyle

def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_LEVEL = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}


def render_github(report: Report) -> str:
    """GitHub Actions workflow commands (::error file=...::message); problems as ::warning."""
    lines = []
    for path, _, f in report.findings():
        props = (f"file={_gh_escape(_rel(path), True)},line={f.line},col={f.column},"
                 f"endLine={f.end_line},endColumn={f.end_column},"
                 f"title={_gh_escape(f'{f.code} {f.rule}', True)}")
        lines.append(f"::{_GH_LEVEL[f.severity]} {props}::{_gh_escape(f.message)}")
    for p in report.problems:
        props = []
        if p.path and p.path != "-":
            props.append(f"file={_gh_escape(_rel(p.path), True)}")
            if p.line:
                props.append(f"line={p.line},col={p.column or 1}")
        props.append("title=packgate")
        lines.append(f"::warning {','.join(props)}::{_gh_escape(p.message)}")
    return "\n".join(lines) + ("\n" if lines else "")


# GitLab Code Quality severities: info, minor, major, critical, blocker
_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "information": "info", "hint": "info"}


def render_gitlab(report: Report) -> str:
    """A GitLab Code Quality report (a JSON array of issues)."""
    import json
    root = report.root or repository_root()
    issues = []
    for (path, _, f), print_ in zip(report.findings(), fingerprints(report, root)):
        issues.append({
            "type": "issue",
            "description": f"{f.code} {f.rule}: {f.message}",
            "check_name": f.code,
            "fingerprint": print_,
            "severity": _GITLAB_SEVERITY[f.severity],
            "categories": ["Bug Risk"],
            "location": {"path": _report_path(path, root),
                         "lines": {"begin": f.line, "end": f.end_line}},
        })
    return json.dumps(issues, ensure_ascii=False, indent=2) + "\n"


_CHECKSTYLE_SEVERITY = {"error": "error", "warning": "warning", "information": "info", "hint": "info"}
# characters XML 1.0 cannot hold, even escaped
_NOT_XML = "[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"


def render_checkstyle(report: Report) -> str:
    """Checkstyle XML: one <file> per checked file, one <error> per finding."""
    from xml.sax.saxutils import quoteattr

    def attr(text) -> str:
        return quoteattr(re.sub(_NOT_XML, "\ufffd", str(text)))

    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<checkstyle version="4.3">']
    for path, analysis in report.files:
        out.append(f"  <file name={attr(path)}>")
        for f in analysis.findings:
            out.append(f"    <error line={attr(f.line)} column={attr(f.column)} "
                       f"severity={attr(_CHECKSTYLE_SEVERITY[f.severity])} "
                       f"message={attr(f.message)} source={attr(f'packgate.{f.code}.{f.rule}')}/>")
        out.append("  </file>")
    out.append("</checkstyle>")
    return "\n".join(out) + "\n"


def render(report: Report, fmt: str, options: TextOptions = TextOptions()) -> str:
    """Render a report in one of FORMATS."""
    machine = {"json": render_json, "sarif": render_sarif, "github": render_github,
               "gitlab": render_gitlab, "checkstyle": render_checkstyle}
    if fmt == "json" and options.statistics:
        return _valid_unicode(render_statistics_json(report))
    if fmt in machine:
        return _valid_unicode(machine[fmt](report))
    return render_text(report, options)  # a terminal gets the file name's own bytes, as ls prints them


def at_least(severity: str, minimum: str) -> bool:
    """True when severity is at or above minimum."""
    return LEVEL_RANK[severity] >= LEVEL_RANK[minimum]
