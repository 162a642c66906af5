"""Definition, references and completion over one analysis: data for the editor features.

Definition's precedence: on a gate, the training code's reads, then the assignments reaching a
launch (as before the launch contract). On any other variable, the script's own assignments
first when the cursor is on an expansion (`$X`: where its value was set), then every place the
workspace's Python code reads it; on an assignment or export, the code's reads only. On a
trainer option (a word after the launch's entry point), every `add_argument` of the launch's
parser (or of the workspace, when the parser was not found) that defines it, or the one option an
abbreviation stands for where the parser allows them.
"""

from __future__ import annotations

import re

from . import gates as G
from . import launch_contract as C
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
    kind: str  # "variable", "value" or "option"
    replace: tuple | None = None  # byte span the insert replaces (an option's typed part), None: the client's word


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


def definition(analysis, offset: int, read_line: C.LineReader | None = None) -> list:
    """Where the word at offset is defined (the module docstring gives the precedence).
    read_line(path, line) gives a Python file's line, to point at the name in it (default: disk)."""
    occ = occurrence_at(analysis, offset)
    if occ is not None and occ.name in G.GATES:
        return _gate_definition(analysis, occ)
    index = C.contract_for(analysis)
    reader = read_line or C.disk_line
    var = C.variable_at(analysis, offset)
    if var is not None:
        out = _script_assignments(analysis, var.name, offset) if var.kind == OccurrenceKind.EXPAND else []
        return out + (reads_of(index, var.name, reader) if index is not None else [])
    word = C.option_word_at(analysis, offset) if index is not None else None
    if word is None:
        return []
    accepted = C.accepted_options(index, word)
    short = C.abbreviated(accepted, word.text)  # the one option an abbreviation stands for
    return option_locations(C.definitions_of(accepted, word.text) or (short if len(short) == 1 else ()), reader)


def reads_of(index, name: str, read_line: C.LineReader) -> list:
    """Every place the workspace's Python code reads a variable, at the name in its line."""
    out = []
    for r in index.reads_of(name):
        start, end = C.quoted_span(read_line(r.file, r.line - 1), r.column, name)
        out.append(Location(r.file, 0, 0, r.line - 1, start, end))
    return out


def option_locations(defs, read_line: C.LineReader) -> list:
    """The `add_argument` lines of OptionDefs, at the option string when the line shows it."""
    out = []
    for d in defs:
        if not d.file or d.line <= 0:
            continue
        text = read_line(d.file, d.line - 1)
        word = next((s for s in d.strings if text is not None and s in text), d.strings[0])
        start, end = C.quoted_span(text, d.column, word)
        out.append(Location(d.file, 0, 0, d.line - 1, start, end))
    return out


def _script_assignments(analysis, name: str, offset: int) -> list:
    """The document's assignments of a variable: those before offset when there are any."""
    sites = [o for o in analysis.script.occurrences if o.name == name and o.kind == OccurrenceKind.ASSIGN]
    before = [o for o in sites if o.end <= offset]
    return [Location(None, o.start, o.end) for o in (before or sites)]


def _gate_definition(analysis, occ) -> list:
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


def name_at(analysis, offset: int) -> str | None:
    """The variable named at offset (a gate or any other), for references; None elsewhere."""
    occ = occurrence_at(analysis, offset)
    if occ is not None and occ.name in G.GATES:
        return occ.name
    var = C.variable_at(analysis, offset)
    return var.name if var is not None else None


_SETTING = frozenset({OccurrenceKind.ASSIGN, OccurrenceKind.EXPORT, OccurrenceKind.UNSET, OccurrenceKind.PREFIX,
                      OccurrenceKind.ENV, OccurrenceKind.DOCKER})


def assignments(analysis, name: str) -> list:
    """Every assignment of a variable in the analysed document (for references): for a gate the
    assignments that ran and its exports and unsets; for any other name every place that sets,
    exports or unsets it (prefixes, `env`, `docker -e` included)."""
    if analysis.flow is None or analysis.script is None:
        return []
    if name not in G.GATES:
        return [Location(None, o.start, o.end) for o in sorted(analysis.script.occurrences, key=lambda o: o.start)
                if o.name == name and o.kind in _SETTING]
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
    """Gate names, then the names the workspace's code reads, after `export ` or at the start of
    an assignment (never in a comment or a string); `'1'`/`'0'` after `GATE=`; the options of the
    launch's parser on a word starting with `-` among its trainer arguments; in a `# packgate`
    comment, its keywords, rules and profiles."""
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
    word = C.option_word_at(analysis, offset, partial=True)
    if word is not None:
        index = C.contract_for(analysis)
        # past `=` the word is a value: no option fits there
        return option_completions(index, word, lang) if index is not None and "=" not in word.text else []
    if (_EXPORT_CTX.search(before) or _LINE_START.match(before)) and not in_comment_or_string(analysis, offset):
        out = []
        profile = analysis.profile
        for name in G.GATES:
            role = ("encoding gate" if name in profile.encoding else
                    "batch gate" if name == profile.batch else "dead: nothing reads it")
            role_zh = ("编码开关" if name in profile.encoding else
                       "batch 开关" if name == profile.batch else "无效：没有代码读取")
            out.append(Completion(name, name, pick(lang, role, role_zh),
                                  gate_doc(profile, name, lang), "variable"))
        index = C.contract_for(analysis)
        if index is not None:
            out.extend(variable_completions(index, lang))
        return out
    return []


def variable_completions(index, lang: str) -> list:
    """The names the workspace's code reads (the gates aside, listed first), each with where
    and how it is read."""
    from .contract_hover import default_text, expression, parse_text
    by_name: dict = {}
    for facts in index.files.values():  # one pass: reads_of per name would walk them all each time
        for r in facts.reads:
            if r.name not in G.GATES:
                by_name.setdefault(r.name, []).append(r)
    out = []
    for name in sorted(by_name):
        reads = by_name[name]
        first = reads[0]
        where = f"{C.relative(index, first.file)}:{first.line}"
        more = len(reads) - 1
        detail = f"{where} · {expression(first)}" + (f" (+{more})" if more > 0 else "")
        docs = []
        for zh in ((False, True) if lang == "both" else (lang == "zh",)):
            for r in reads[:4]:
                docs.append(f"{C.relative(index, r.file)}:{r.line}{'：' if zh else ': '}{parse_text(r, zh)}"
                            f"{'；默认值 ' if zh else '; default '}{default_text(r, zh)}")
        out.append(Completion(name, name, detail, "\n\n".join(docs), "variable"))
    return out


def option_completions(index, word, lang: str) -> list:
    """The options of the launch's parser (or of the workspace when it was not found) for the
    option word being typed, each with its type or choices and where it is defined."""
    accepted = C.accepted_options(index, word)
    out, seen = [], set()
    for o in accepted.options:
        if o.positional or o.action == "help":
            continue
        detail = _option_detail(o, lang)
        where = f"{C.relative(index, o.file)}:{o.line}" if o.file else ""
        doc = where + (f"\n\n{' '.join(o.help.split())}" if o.help else "")
        for string in o.strings:
            if string.startswith("-") and string not in seen:
                seen.add(string)
                out.append(Completion(string, string, detail, doc, "option", (word.start, word.end)))
    return out


def _option_detail(o, lang: str) -> str:
    """An option's type, choices and nargs in a few words (the completion's detail)."""
    from .code.options import UNKNOWN_TYPE
    if not C.takes_value(o):
        parts = [pick(lang, "switch", "开关")]
    else:
        parts = [str(o.type) if o.type not in (None, UNKNOWN_TYPE) else pick(lang, "text", "文本")]
    if isinstance(o.choices, tuple):
        parts.append("{" + ", ".join(str(c) for c in o.choices) + "}")
    if o.nargs is not None and o.nargs != UNKNOWN_TYPE:
        parts.append(f"nargs={o.nargs}")
    return " ".join(parts)


def in_comment_or_string(analysis, offset: int) -> bool:
    """Whether offset is inside a comment or a quoted string, read from the last point before it
    that is surely outside both: a statement's start or end, or with a syntax error (where
    tree-sitter's recovery may start a statement inside a string) the start of offset's line."""
    data = analysis.source.data
    safe = 0
    if analysis.script is None or analysis.script.has_error:
        src = analysis.source
        safe = src.line_starts[src.line_of(offset)]
    else:
        for start, end in analysis.script.statements:
            if start <= offset and start > safe:
                safe = start
            if end < offset and end > safe:
                safe = end
    j = safe
    while True:  # from one quote, backslash or `#` to the next (the bytes between do not matter)
        m = _LEXICAL.search(data, j, offset)
        if m is None:
            return False
        at, b = m.start(), data[m.start()]
        if b == 0x5C:  # a backslash escapes the next byte
            j = at + 2
        elif b == 0x27:  # a single-quoted string ends at the next quote
            close = data.find(b"'", at + 1, offset)
            if close < 0:
                return True
            j = close + 1
        elif b == 0x22:
            close = _double_end(data, at + 1, offset)
            if close < 0:
                return True
            j = close + 1
        elif at == safe or data[at - 1] in b" \t\n;&|()":  # `#` at a word's start: to the line's end
            newline = data.find(b"\n", at, offset)
            if newline < 0:
                return True
            j = newline + 1
        else:
            j = at + 1


_LEXICAL = re.compile(rb"[\\'\"#]")
_DOUBLE = re.compile(rb'[\\"]')


def _double_end(data: bytes, j: int, stop: int) -> int:
    """Where a double-quoted string opened before j closes (before stop), or -1."""
    while True:
        m = _DOUBLE.search(data, j, stop)
        if m is None:
            return -1
        if data[m.start()] == 0x22:
            return m.start()
        j = m.start() + 2
