"""Definition, references and completion over one analysis: data for the editor features."""

from __future__ import annotations

import re

from . import gates as G
from .hover import gate_doc
from .parse.model import OccurrenceKind
from .records import record
from .rules.rule import pick


@record(frozen=True)
class Location:
    """A place in a file: byte offsets when `offsets`, else 0-based line and code-point column."""

    path: str | None  # None: the analysed document
    start: int
    end: int
    line: int = -1  # for files packgate did not parse (Python code): 0-based line ...
    column: int = 0  # ... and code-point columns
    end_column: int = 0


@record(frozen=True)
class Completion:
    """One completion item."""

    label: str
    insert: str
    detail: str
    documentation: str
    kind: str  # "variable" or "value"


def occurrence_at(analysis, offset: int):
    """The gate (or --micro-batch-size) mention under offset, or None."""
    if analysis.script is None or analysis.flow is None:
        return None
    best = None
    for o in list(analysis.script.occurrences) + list(analysis.flow.extra_occurrences):
        if o.start <= offset <= o.end and (o.name in G.GATES or o.name == G.MBS_FLAG):
            if best is None or (o.end - o.start) < (best.end - best.start):
                best = o
    return best


def definition(analysis, offset: int) -> list:
    """Where a gate is read by the training code, and the assignments that reach a launch."""
    occ = occurrence_at(analysis, offset)
    if occ is None or occ.name not in G.GATES:
        return []
    out = []
    for r in analysis.profile.reads:
        if r.name == occ.name:
            out.append(Location(r.path, 0, 0, r.line - 1, r.column - 1, r.column - 1 + len(r.name)))
    seen = set()
    for launch in analysis.flow.launches:
        for path in launch.paths:
            s = path.gates[occ.name]
            a = s.origin or s.unexported
            if a is None or id(a) in seen:
                continue
            seen.add(id(a))
            out.append(Location(a.file, a.name_start, a.name_end))
    return out


def assignments(analysis, name: str) -> list:
    """Every assignment of a variable in the analysed document (for references)."""
    if analysis.flow is None:
        return []
    out = []
    for a, _ in analysis.flow.gate_sites:
        if a.name == name and a.file is None:
            out.append(Location(None, a.name_start, a.name_end))
    for o in analysis.script.occurrences:
        if o.name == name and o.kind in (OccurrenceKind.EXPORT, OccurrenceKind.UNSET) and \
                all(loc.start != o.start for loc in out):
            out.append(Location(None, o.start, o.end))
    return sorted(out, key=lambda l: l.start)


_EXPORT_CTX = re.compile(rb"(?:^|[;&|(\s])(?:export|declare\s+-x|typeset\s+-x|local)\s+(?:-\w+\s+)*([A-Za-z_]\w*)?$")
_LINE_START = re.compile(rb"^\s*([A-Za-z_]\w*)?$")
_VALUE_CTX = re.compile(rb"(OFFLINE_PACK\w+)=([\"']?)$")


_DISABLE_CTX = re.compile(rb"#\s*packgate\s+disable\s*=\s*((?:[^\s,]+,)*)[^\s,]*$")
_PROFILE_CTX = re.compile(rb"#\s*packgate\s+profile\s*=\s*[^\s,]*$")
_KEYWORD_CTX = re.compile(rb"^\s*#\s*packgate\s+\w*$")


def _directive_completions(before: bytes, lang: str) -> list | None:
    """Inside a `# packgate` comment: its keywords, the rules after `disable=` (those not listed
    yet), the profiles after `profile=`; None elsewhere."""
    from .rules import RULES
    m = _DISABLE_CTX.search(before)
    if m is not None:
        listed = {v.decode("utf-8", "replace").lower() for v in m.group(1).split(b",") if v}
        out = []
        for r in RULES:
            if r.code.lower() in listed or r.name in listed:
                continue
            out.append(Completion(r.code, r.code, f"{r.name} ({r.severity})",
                                  f"{r.summary(lang)}\n\n{r.doc_url}", "value"))
        if "all" not in listed:
            out.append(Completion("all", "all", pick(lang, "every rule", "所有规则"), "", "value"))
        return out
    if _PROFILE_CTX.search(before):
        out = [Completion(name, name, pick(lang, p.title_en, p.title_zh), "", "value")
               for name, p in G.PROFILES.items()]
        out.append(Completion("auto", "auto", pick(lang, "from the project's Python training code",
                                                   "由项目中的 Python 训练代码推断"), "", "value"))
        return out
    if _KEYWORD_CTX.search(before):
        return [Completion(f"{k}=", f"{k}=", pick(lang, en, zh), "", "value") for k, en, zh in (
            ("disable", "silence rules for the next command (the whole file before the first)",
             "对下一条命令关闭规则（写在第一条命令之前则对整个文件）"),
            ("profile", "the training code this file launches", "本文件启动的训练代码"),
            ("source", "the file a source / . below reads", "下方 source / . 读取的文件"))]
    return None


def completions(analysis, offset: int, lang: str = "both") -> list:
    """Gate names after `export ` or at the start of an assignment; `'1'`/`'0'` after `GATE=`;
    in a `# packgate` comment, its keywords, rules and profiles."""
    src = analysis.source
    line = src.line_of(offset)
    before = src.data[src.line_starts[line]:offset]
    if b"packgate" in before:
        directive = _directive_completions(before, lang)
        if directive is not None:
            return directive
    m = _VALUE_CTX.search(before)
    if m and m.group(1).decode() in G.GATES:
        quote = m.group(2).decode()
        out = []
        for value, en, zh in (("1", "on", "打开"), ("0", "off", "关闭")):
            insert = value + quote if quote else f"'{value}'"
            out.append(Completion(f"'{value}'" if not quote else value, insert,
                                  pick(lang, en, zh), "", "value"))
        return out
    if _EXPORT_CTX.search(before) or _LINE_START.match(before):
        out = []
        profile = analysis.profile
        for name in G.GATES:
            role = ("encoding gate" if name in profile.encoding else
                    "batch gate" if name == profile.batch else "dead: nothing reads it")
            role_zh = ("编码开关" if name in profile.encoding else
                       "batch 开关" if name == profile.batch else "无效：没有代码读取")
            out.append(Completion(name, name, pick(lang, role, role_zh),
                                  gate_doc(profile, name, lang), "variable"))
        return out
    return []
